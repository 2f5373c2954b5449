package dev.guard.rules.internal;

import dev.guard.api.rule.Rule;
import java.util.List;
import org.jspecify.annotations.Nullable;

/** Every rule kind the format knows, in the order a written document lists them. */
public final class Kinds {

  /** The registered kinds. */
  public static final List<KindFormat<?>> ALL = List.of(
      new FlowFormat(), new PerValueFormat(), new CircuitBreakerFormat(), new OriginFormat(),
      new SystemFormat(), new AdaptiveConcurrencyFormat());

  private Kinds() {}

  /** The format of a rule's kind, or null if the format has none. */
  public static @Nullable KindFormat<?> of(Rule rule) {
    for (KindFormat<?> kind : ALL) {
      if (kind.type().isInstance(rule)) {
        return kind;
      }
    }
    return null;
  }
}
