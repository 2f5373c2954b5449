package dev.guard.vavr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.Guard;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import io.vavr.control.Either;
import io.vavr.control.Try;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class VavrCallsTest {

  private final ManualClock clock = new ManualClock();
  private final GuardEngine engine = GuardEngine.builder().clock(clock).build();

  @Test
  void tryCall_givesTheResultTheRefusalOrTheCodesOwnFailure() {
    Guard guard = Guard.of("r").qps(2).on(engine);
    IllegalStateException down = new IllegalStateException("down");

    Try<String> first = VavrCalls.tryCall(guard, () -> "a");
    Try<String> failed = VavrCalls.tryCall(guard, () -> {
      throw down;
    });
    Try<String> refused = VavrCalls.tryCall(guard, () -> "c");

    assertThat(first.get()).isEqualTo("a");
    assertThat(failed.getCause()).isSameAs(down);
    assertThat(refused.getCause()).isInstanceOf(RefusedException.Flow.class);
    assertThat(engine.stats("r").totalPass()).isEqualTo(2);
  }

  @Test
  void tryEither_givesTheRefusalOnTheLeft_andLetsTheCodesOwnFailurePass() {
    Guard guard = Guard.of("r").qps(1).on(engine);
    IllegalStateException down = new IllegalStateException("down");

    Either<RefusedException, String> first = VavrCalls.tryEither(guard, () -> "a");
    Either<RefusedException, String> refused = VavrCalls.tryEither(guard, () -> "b");
    clock.advance(Duration.ofSeconds(1));

    assertThat(first.get()).isEqualTo("a");
    assertThat(refused.getLeft()).isInstanceOf(RefusedException.Flow.class);
    assertThatThrownBy(() -> VavrCalls.tryEither(guard, () -> {
      throw down;
    })).isSameAs(down);
  }

  @Test
  void nullArguments_areNamed() {
    Guard guard = Guard.of("r").on(engine);

    assertThatThrownBy(() -> VavrCalls.tryCall(null, () -> "a")).hasMessage("guard");
    assertThatThrownBy(() -> VavrCalls.tryEither(guard, null)).hasMessage("supplier");
  }
}
