package dev.guard.engine.internal.call;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.api.EntryType;
import dev.guard.spi.TimeSource;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.internal.FrozenTime;
import dev.guard.engine.internal.registry.ChainCompiler;
import dev.guard.engine.internal.registry.EngineConfig;
import dev.guard.engine.internal.registry.EngineParts;
import dev.guard.engine.internal.registry.ResourceRegistry;
import dev.guard.engine.internal.stat.WindowGeometry;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The decorator path reuses one entry object per thread and nesting depth. A use must never leak
 * into the next: the held argument is dropped however the entry exited, and a holder of an earlier
 * use cannot close or mark a later one.
 */
class PooledEntryTest {

  private static final TimeSource FROZEN = FrozenTime.SOURCE;

  private final EngineParts parts = EngineParts.of(FROZEN,
      new EngineConfig(WindowGeometry.SECOND_DEFAULT, 100, 100, 100, 500, false, 300, 300_000, 20,
          null, 1),
      List.of(),
      GuardEngine.hostStatus(),
      null);
  private final ResourceRegistry resources =
      new ResourceRegistry(parts, ChainCompiler.kinds(parts.system()));
  private final CallPath core = new CallPath(parts);

  private CallSite site(String resource) {
    return new CallSite(resources.resolve(resource), EntryType.OUT, 1, false, null, "");
  }

  @Test
  void enterWithArgument_sameDepthAfterExit_reusesTheEntryAndDropsTheArgument() {
    CallEntry first = core.enterWithArgument(site("r"), "user-1");
    assertThat(first.args()).containsExactly("user-1");
    first.close(first.generation());

    assertThat(first.args()).containsOnlyNulls();
    CallEntry second = core.enterWithArgument(site("r"), "user-2");
    assertThat(second).isSameAs(first);
    assertThat(second.args()).containsExactly("user-2");
    second.close(second.generation());
  }

  @Test
  void enterWithArguments_holdsBothInAReusedPair_andDropsThemAtExit() {
    CallEntry first = core.enterWithArguments(site("r"), "query", "tenant-1");
    assertThat(first.args()).containsExactly("query", "tenant-1");
    first.close(first.generation());

    assertThat(first.args()).containsOnlyNulls();
    CallEntry second = core.enterWithArguments(site("r"), "other", "tenant-2");
    assertThat(second).isSameAs(first);
    assertThat(second.args()).containsExactly("other", "tenant-2");
    second.close(second.generation());
    CallEntry single = core.enterWithArgument(site("r"), "one");
    assertThat(single.args()).as("a single argument after a pair").containsExactly("one");
    single.close(single.generation());
  }

  @Test
  void pooledEntry_exitedByAnOuterOutOfOrderClose_dropsItsArgument() {
    CallEntry outer = core.enter(site("outer"), false, null);
    CallEntry inner = core.enterWithArgument(site("inner"), "secret");

    assertThatThrownBy(outer::close).isInstanceOf(IllegalStateException.class);

    assertThat(inner.args()).containsOnlyNulls();
    assertThat(resources.existing("inner").cluster().stats().concurrency()).isZero();
  }

  @Test
  void staleHolder_ofAnEarlierUse_cannotCloseOrFailTheNextUse() {
    CallEntry first = core.enter(site("r"), true, null);
    long staleUse = first.generation();
    first.close(staleUse);
    CallEntry reused = core.enter(site("r"), true, null);
    assertThat(reused).isSameAs(first);

    reused.close(staleUse, new IllegalStateException("stale"), null);

    assertThat(reused.error()).isNull();
    assertThat(resources.existing("r").cluster().stats().concurrency()).isEqualTo(1);
    reused.close(reused.generation());
    assertThat(resources.existing("r").cluster().stats().concurrency()).isZero();
  }

  @Test
  void pooledEntry_closedByOwnerAfterAnotherThreadClosedItsParent_exitsExactlyOnce()
      throws InterruptedException {
    CallEntry outer = core.enter(site("outer"), false, null);
    CallEntry inner = core.enter(site("inner"), true, null);
    long use = inner.generation();

    Thread other = new Thread(() -> {
      try {
        outer.close();
      } catch (IllegalStateException expected) {
        // the other thread exits the entries it may, and leaves the pooled one to its owner
      }
    });
    other.start();
    other.join(5_000);
    assertThat(resources.existing("inner").cluster().stats().concurrency()).isEqualTo(1);

    inner.close(use);
    inner.close(use);
    assertThat(resources.existing("inner").cluster().stats().concurrency()).isZero();
    assertThat(resources.existing("outer").cluster().stats().concurrency()).isZero();
    assertThat(resources.existing("inner").cluster().stats().totalSuccess(0)).isEqualTo(1);
  }
}
