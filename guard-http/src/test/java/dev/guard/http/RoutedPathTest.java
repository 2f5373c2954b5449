package dev.guard.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

class RoutedPathTest {

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "/admin, /admin",
      "/%61dmin, /admin",
      "/%61%64%6D%69%6E, /admin",
      "/admin/, /admin",
      "/admin//x, /admin/x",
      "/admin;x=1, /admin",
      "/;x/admin, /admin",
      "/a%3Bb, /a;b",
      "/caf%C3%A9, /café",
      "/café, /café",
      "/\uD83D\uDE00%20x, /\uD83D\uDE00 x",
      "/a%20b, /a b",
      "'', /",
      "/, /",
  })
  void ofRaw_decodesAndNormalizes(String raw, String expected) {
    assertThat(RoutedPath.ofRaw(raw)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/./admin", "/x/../admin", "/admin/.", "/x/%2e%2E/admin", "/x/..;/admin",
      "/a%2Fb", "/a%2fb", "/%2561", "/a%00", "/a%0a", "/a%7F", "/a%5cb", "/a\\b", "/a%zz", "/a%4",
      "/a%", "/a%c0%af", "/a%ff", "/a%e2%82", "/a%EF%BF%BD"})
  void ofRaw_ambiguousPaths_areRefused(String raw) {
    assertThat(RoutedPath.ofRaw(raw)).isNull();
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
      "/admin, /admin",
      "/admin/, /admin",
      "/x/../admin, /admin",
      "/./admin/., /admin",
      "//admin, /admin",
      "/100%, /100%",
      "'', /",
  })
  void ofDecoded_normalizes(String decoded, String expected) {
    assertThat(RoutedPath.ofDecoded(decoded)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(strings = {"/../admin", "/a/../../b", "/a\u0000", "/a\\b", "/a\uFFFD"})
  void ofDecoded_ambiguousPaths_areRefused(String decoded) {
    assertThat(RoutedPath.ofDecoded(decoded)).isNull();
  }
}
