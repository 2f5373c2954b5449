package dev.guard.dashboard.internal;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The pages, scripts and style sheet, read once from the jar ({@code dev/guard/dashboard/web/}):
 * no CDN, nothing fetched from elsewhere. Scripts and the style sheet are served to anyone (they
 * hold no data); pages go through the access checks; the login page is filled in per request.
 */
final class WebFiles {

  private static final Map<String, String> ASSETS = Map.of(
      "/dashboard.css", "text/css; charset=utf-8",
      "/common.js", "text/javascript; charset=utf-8",
      "/list.js", "text/javascript; charset=utf-8",
      "/resource.js", "text/javascript; charset=utf-8",
      "/fleet.js", "text/javascript; charset=utf-8");

  private static final Map<String, byte[]> FILES = Map.of(
      "/fleet.js", read("fleet.js"),
      "/fleet.html", read("fleet.html"),
      "/dashboard.css", read("dashboard.css"),
      "/common.js", read("common.js"),
      "/list.js", read("list.js"),
      "/resource.js", read("resource.js"),
      "/index.html", read("index.html"),
      "/resource.html", read("resource.html"),
      "/login.html", read("login.html"));

  private WebFiles() {}

  private static byte[] read(String name) {
    String path = "/dev/guard/dashboard/web/" + name;
    try (InputStream in = Objects.requireNonNull(
        WebFiles.class.getResourceAsStream(path), path + " is missing from the jar")) {
      return in.readAllBytes();
    } catch (IOException failed) {
      throw new UncheckedIOException(failed);
    }
  }

  private static byte[] file(String path) {
    return Objects.requireNonNull(FILES.get(path), path);
  }

  /** A script or the style sheet, if the path names one. */
  static Optional<DashboardResponse> asset(String path) {
    String type = ASSETS.get(path);
    return type == null
        ? Optional.empty()
        : Optional.of(DashboardResponse.of(200, type, file(path)));
  }

  /** Whether the path names a page. */
  static boolean isPage(String path) {
    return path.equals("/index.html") || path.equals("/resource.html")
        || path.equals("/fleet.html");
  }

  /** A page. */
  static DashboardResponse page(String path) {
    return DashboardResponse.of(200, "text/html; charset=utf-8", file(path));
  }

  /** The login page with a message (escaped). */
  static DashboardResponse login(String message) {
    String page = new String(file("/login.html"), StandardCharsets.UTF_8)
        .replace("{{message}}", escape(message));
    return DashboardResponse.of(200, "text/html; charset=utf-8",
        page.getBytes(StandardCharsets.UTF_8));
  }

  private static String escape(String text) {
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace("\"", "&quot;");
  }
}
