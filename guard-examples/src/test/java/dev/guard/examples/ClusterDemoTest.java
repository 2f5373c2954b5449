package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The command line and rows of the demo's mode for several processes (no Redis needed here). */
class ClusterDemoTest {

  @Test
  void options_modeAlone_takesTheLocalServerAndTheDefaultLength() {
    assertThat(ClusterDemo.options(new String[] {"--redis"}))
        .isEqualTo(new ClusterDemo.Options("redis://127.0.0.1:6379", 30));
  }

  @Test
  void options_uriAndSeconds_areRead() {
    assertThat(ClusterDemo.options(new String[] {"--redis", "redis://cache:6380", "12"}))
        .isEqualTo(new ClusterDemo.Options("redis://cache:6380", 12));
    assertThat(ClusterDemo.options(new String[] {"--redis", "5"}))
        .isEqualTo(new ClusterDemo.Options("redis://127.0.0.1:6379", 5));
  }

  @Test
  void options_extraOrInvalidArguments_areRefused() {
    assertThatThrownBy(() -> ClusterDemo.options(new String[] {"--redis", "5", "6"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("usage");
    assertThatThrownBy(() -> ClusterDemo.options(new String[] {"--redis", "0"}))
        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("seconds");
  }

  @Test
  void row_showsTheSharedTotal_orWhyItIsMissing() {
    assertThat(ClusterDemo.row(3, 30, 20, 40, true, true))
        .isEqualTo("     3       30             20         40 admitted");
    assertThat(ClusterDemo.row(4, 30, 30, -1, false, false))
        .isEqualTo("     4       30             30          -  refused  "
            + "Redis unavailable: the local limits decide");
  }
}
