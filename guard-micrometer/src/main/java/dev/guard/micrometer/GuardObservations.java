package dev.guard.micrometer;

import dev.guard.api.CircuitBreaker;
import dev.guard.api.RefusedException;
import dev.guard.spi.EngineListener;
import io.micrometer.common.KeyValue;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import java.util.Locale;
import java.util.Objects;

/**
 * Records guard's decisions on the Micrometer {@link Observation} in progress, so that a trace
 * shows why a request was refused or when a breaker opened under it: a refusal is the event
 * {@value #REFUSED} (contextual name {@code "guard refused <resource>: <kind>"}) with the low
 * cardinality key values {@code guard.resource} and {@code guard.refusal}; a breaker transition,
 * heard as an {@link EngineListener} on the thread that caused it, is the event {@value
 * #BREAKER} ({@code "guard breaker <resource>: closed -> open"}).
 *
 * <pre>{@code
 * GuardObservations observations = GuardObservations.of(observationRegistry);
 * GuardEngine engine = GuardEngine.builder().listener(observations).build();
 * ...
 * } catch (RefusedException refused) {
 *   observations.refused(refused);       // where the refusal reaches the application
 * }
 * }</pre>
 *
 * <p>Nothing runs on the pass path: {@link #refused} is called for refused calls only, and
 * without an observation in progress (or with a no-op registry) it reads one thread-local and
 * returns. Thread-safe.
 */
public final class GuardObservations implements EngineListener {

  /** The name of the event of a refusal. */
  public static final String REFUSED = "guard.refused";

  /** The name of the event of a breaker transition. */
  public static final String BREAKER = "guard.breaker";

  private final ObservationRegistry registry;

  private GuardObservations(ObservationRegistry registry) {
    this.registry = registry;
  }

  /**
   * Returns observations recorded on the registry's current observation.
   *
   * @param registry the application's observation registry
   * @return the recorder
   */
  public static GuardObservations of(ObservationRegistry registry) {
    return new GuardObservations(Objects.requireNonNull(registry, "registry"));
  }

  /**
   * Records a refusal on the observation in progress on this thread, if there is one.
   *
   * @param refusal the refusal
   */
  public void refused(RefusedException refusal) {
    Observation current = registry.getCurrentObservation();
    if (current == null || current.isNoop()) {
      return;
    }
    String kind = RefusedException.Kind.of(refusal).tag();
    current.lowCardinalityKeyValue(KeyValue.of("guard.resource", refusal.resource()));
    current.lowCardinalityKeyValue(KeyValue.of("guard.refusal", kind));
    current.event(Observation.Event.of(REFUSED,
        "guard refused " + refusal.resource() + ": " + kind));
  }

  @Override
  public void onBreakerStateChanged(CircuitBreaker.Transition transition) {
    Observation current = registry.getCurrentObservation();
    if (current == null || current.isNoop()) {
      return;
    }
    current.event(Observation.Event.of(BREAKER, "guard breaker " + transition.resource() + ": "
        + name(transition.from()) + " -> " + name(transition.to())));
  }

  private static String name(CircuitBreaker.State state) {
    return state.name().toLowerCase(Locale.ROOT).replace('_', '-');
  }

  @Override
  public String toString() {
    return "GuardObservations[" + registry + "]";
  }
}
