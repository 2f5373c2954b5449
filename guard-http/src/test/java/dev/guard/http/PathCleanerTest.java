package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.function.Function;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PathCleanerTest {

  private final Function<String, String> ids = PathCleaner.ids();

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "/orders/123, /orders/{id}",
      "/orders/123/items/7, /orders/{id}/items/{id}",
      "/users/3f2c1a9e-8b7d-4c6e-9f01-23456789abcd, /users/{id}",
      "/users/ABCDEFAB-CDEF-ABCD-EFAB-CDEFABCDEFAB, /users/{id}",
      "/objects/5f1d7c2e9a3b4c0012345678, /objects/{id}",
      "/blobs/0123456789abcdef, /blobs/{id}",
      "/words/deadbeefdeadbeef, /words/deadbeefdeadbeef",
      "/short/abc123, /short/abc123",
      "/v2/orders, /v2/orders",
      "/orders/;jsessionid=1, /orders",
      "/orders/1;v=2/items, /orders/{id}/items",
      "//a///b/, /a/b",
      "/, /",
      "'', /",
      "/orders/12a, /orders/12a",
      "/a-b-c, /a-b-c",
  })
  void ids_cleansPaths(String path, String expected) {
    assertThat(ids.apply(path)).isEqualTo(expected);
  }
}
