package dev.guard.engine.internal.origin;

import dev.guard.engine.internal.chain.Call;
import dev.guard.api.RefusedException;
import dev.guard.api.rule.OriginRule;
import dev.guard.engine.internal.chain.Slot;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Applies a resource's origin allow or deny list: a call without an origin passes; otherwise an
 * allow list admits exactly the listed origins and a deny list refuses exactly them (names
 * compare exactly; the rule trimmed its list when it was built).
 *
 * <p>Refusals name the origin, so there is one per refused origin, created on first refusal and
 * kept: a deny list's refused origins are its own list; an allow list may see any number of
 * unlisted origins, so only the first {@value #KEPT_REFUSALS} are kept and later ones allocate
 * their refusal each time.
 */
final class OriginSlot implements Slot {

  static final int KEPT_REFUSALS = 256;

  final OriginRule rule;
  private final ConcurrentHashMap<String, RefusedException.Origin> refusals =
      new ConcurrentHashMap<>();

  OriginSlot(OriginRule rule) {
    this.rule = rule;
  }

  @Override
  public @Nullable RefusedException enter(Call entry) {
    String origin = entry.origin();
    return rule.admits(origin) ? null : refusal(origin);
  }

  private RefusedException.Origin refusal(String origin) {
    RefusedException.Origin kept = refusals.get(origin);
    if (kept != null) {
      return kept;
    }
    RefusedException.Origin fresh =
        new RefusedException.Origin(rule.resource(), rule, origin);
    if (refusals.size() < KEPT_REFUSALS) {
      RefusedException.Origin raced = refusals.putIfAbsent(origin, fresh);
      return raced == null ? fresh : raced;
    }
    return fresh;
  }
}
