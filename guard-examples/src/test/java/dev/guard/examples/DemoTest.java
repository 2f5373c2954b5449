package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class DemoTest {

  @Test
  void seconds_noArgument_isTheDefault() {
    assertThat(Demo.options(new String[0]).seconds()).isEqualTo(16);
  }

  @Test
  void seconds_aNumber_isUsed() {
    assertThat(Demo.options(new String[] {" 5 "}).seconds()).isEqualTo(5);
  }

  @Test
  void seconds_zero_isRejected() {
    assertThatThrownBy(() -> Demo.options(new String[] {"0"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seconds must be from 1 to 600, was 0");
  }

  @Test
  void seconds_notANumber_isRejected() {
    assertThatThrownBy(() -> Demo.options(new String[] {"ten"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seconds must be a whole number, was 'ten'");
  }

  @Test
  void seconds_twoArguments_showsTheUsage() {
    assertThatThrownBy(() -> Demo.options(new String[] {"1", "2"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("usage: Demo [seconds] [--rules FILE], was 1 2");
  }

  @Test
  void options_rulesFile_isRead_inAnyOrder() {
    assertThat(Demo.options(new String[] {"--rules", "shop.json", "5"}))
        .isEqualTo(new Demo.Options(5, Path.of("shop.json")));
    assertThat(Demo.options(new String[] {"--rules", "shop.json"}))
        .isEqualTo(new Demo.Options(16, Path.of("shop.json")));
  }

  @Test
  void options_rulesWithoutAFile_showsTheUsage() {
    assertThatThrownBy(() -> Demo.options(new String[] {"5", "--rules"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("usage: Demo [seconds] [--rules FILE], was 5 --rules");
  }

  @Test
  void dashboard_whenItsPortIsTaken_servesOnAFreeOne() {
    dev.guard.engine.GuardEngine engine = dev.guard.engine.GuardEngine.builder().build();
    try (dev.guard.dashboard.GuardDashboard.Server first = Demo.dashboard(engine, null);
        dev.guard.dashboard.GuardDashboard.Server second = Demo.dashboard(engine, null)) {
      assertThat(second.uri().getHost()).isEqualTo("127.0.0.1");
      assertThat(second.uri().getPort()).isNotEqualTo(first.uri().getPort());
      assertThat(second.browserUri().getQuery()).startsWith("token=");
    }
  }
}
