package dev.guard.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class DemoTest {

  @Test
  void seconds_noArgument_isTheDefault() {
    assertThat(Demo.seconds(new String[0])).isEqualTo(16);
  }

  @Test
  void seconds_aNumber_isUsed() {
    assertThat(Demo.seconds(new String[] {" 5 "})).isEqualTo(5);
  }

  @Test
  void seconds_zero_isRejected() {
    assertThatThrownBy(() -> Demo.seconds(new String[] {"0"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seconds must be from 1 to 600, was 0");
  }

  @Test
  void seconds_notANumber_isRejected() {
    assertThatThrownBy(() -> Demo.seconds(new String[] {"ten"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("seconds must be a whole number, was 'ten'");
  }

  @Test
  void seconds_twoArguments_showsTheUsage() {
    assertThatThrownBy(() -> Demo.seconds(new String[] {"1", "2"}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("usage: Demo [seconds], was 1 2");
  }
}
