package dev.guard.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JsonTest {
  @Test
  void parse_nestedDocument_givesMapsListsAndValues() {
    Object value =
        Json.parse(
            "{ \"a\" : [1, -2.5e1, true, false, null], \"b\" : \"x\\\"y\\u00b7\\n\", \"c\" : {} }");

    assertThat(value)
        .isEqualTo(
            Map.of(
                "a", List.of(1.0, -25.0, true, false, Json.NULL),
                "b", "x\"y\u00b7\n",
                "c", Map.of()));
  }

  @Test
  void parse_truncatedDocument_isRejectedWithOffset() {
    assertThatThrownBy(() -> Json.parse("[1, 2"))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("offset 5");
  }

  @Test
  void parse_trailingGarbage_isRejected() {
    assertThatThrownBy(() -> Json.parse("[] x")).isInstanceOf(IllegalArgumentException.class);
  }
}
