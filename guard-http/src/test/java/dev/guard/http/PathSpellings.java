package dev.guard.http;

import java.util.ArrayList;
import java.util.List;

/**
 * Spellings of one path that a server routes as that path, for {@link InboundContract}: each
 * one, sent as written over a raw socket, must be refused by the path's rule (429) or refused as
 * ambiguous (400, by guard or by the server itself, or the server's own 404 when it finds no
 * route), and never reach the handler. Each row gives the status expected on Jetty and on the
 * JDK server.
 */
final class PathSpellings {

  static final String ADMIN = "GET /admin";

  private PathSpellings() {}

  /** A spelling, the status Jetty answers and the status the JDK server answers. */
  record Spelling(String method, String target, int jetty, int jdk) {
    static Spelling get(String target, int jetty, int jdk) {
      return new Spelling("GET", target, jetty, jdk);
    }

    int expected(boolean onJetty) {
      return onJetty ? jetty : jdk;
    }
  }

  static final List<Spelling> ADMIN_SPELLINGS = List.of(
      Spelling.get("/admin", 429, 429),
      Spelling.get("/%61dmin", 429, 429),
      Spelling.get("/%61%64%6D%69%6E", 429, 429),
      Spelling.get("/%61%64%6d%69%6e", 429, 429),
      Spelling.get("/adm%69n", 429, 429),
      Spelling.get("/admin/", 429, 429),
      Spelling.get("/admin/.", 429, 400),
      Spelling.get("/admin/./", 429, 400),
      Spelling.get("/./admin", 429, 400),
      Spelling.get("/x/../admin", 429, 400),
      Spelling.get("/x/y/../../admin", 429, 400),
      Spelling.get("/x/./../admin", 429, 400),
      Spelling.get("/admin/x/..", 429, 400),
      Spelling.get("/x/%2e%2e/admin", 400, 400),
      Spelling.get("/%2e/admin", 400, 400),
      Spelling.get("/x/.%2E/admin", 400, 400),
      Spelling.get("/../admin", 400, 400),
      Spelling.get("//admin", 400, 404),
      Spelling.get("/admin//", 400, 429),
      Spelling.get("/admin;x=1", 429, 429),
      Spelling.get("/admin;", 429, 429),
      Spelling.get("/admin;jsessionid=1/", 429, 429),
      Spelling.get("/;x/admin", 400, 429),
      Spelling.get("/x/..;/admin", 400, 400),
      Spelling.get("/x%2F..%2Fadmin", 400, 400),
      Spelling.get("/x%2f..%2fadmin", 400, 400),
      Spelling.get("/admin%2f", 400, 400),
      Spelling.get("/%2Fadmin", 400, 400),
      Spelling.get("/%2561dmin", 400, 400),
      Spelling.get("/admin%00", 400, 400),
      Spelling.get("/admin%zz", 400, 400),
      Spelling.get("/admin%c0%af", 400, 400),
      Spelling.get("/admin%ff", 400, 400),
      Spelling.get("/x%5c..%5cadmin", 400, 400),
      Spelling.get("/admin?x=1", 429, 429),
      Spelling.get("http://127.0.0.1/%61dmin", 429, 429),
      Spelling.get("http://127.0.0.1/x/../admin", 429, 400),
      Spelling.get("/admin#top", 400, 429),
      new Spelling("HEAD", "/admin", 429, 429),
      new Spelling("get", "/admin", 429, 429));

  static final List<Spelling> ORDER_SPELLINGS = List.of(
      Spelling.get("/orders/12", 429, 429),
      Spelling.get("/%6frders/12", 429, 429),
      Spelling.get("/orders/%31%32", 429, 429),
      Spelling.get("/orders/./12", 429, 400),
      Spelling.get("/x/../orders/12", 429, 400),
      Spelling.get("/orders/12/", 429, 429),
      Spelling.get("/orders//12", 400, 429),
      Spelling.get("/orders;v=1/12", 429, 429),
      Spelling.get("/orders/12;x", 429, 429),
      Spelling.get("/orders/%2e/12", 400, 400),
      Spelling.get("/orders%2F12", 400, 400),
      new Spelling("HEAD", "/orders/12", 429, 429),
      new Spelling("Get", "/orders/12", 429, 429));

  /**
   * Sends every spelling to the server and returns those answered otherwise than expected or that
   * reached the handler.
   */
  static List<String> tryAll(TestServer server, TestApp app, boolean onJetty,
      List<Spelling> spellings, String... headers) throws Exception {
    List<String> wrong = new ArrayList<>();
    for (Spelling spelling : spellings) {
      int before = app.handled.get();
      int status = RawRequests.status(server.base(), spelling.method(), spelling.target(), headers);
      boolean reached = app.handled.get() != before;
      if (status != spelling.expected(onJetty) || reached) {
        wrong.add(spelling.method() + " " + spelling.target() + " -> " + status
            + (reached ? " (handler reached)" : ""));
      }
    }
    return wrong;
  }

  /** How many spellings are expected to be answered with this status. */
  static long count(List<Spelling> spellings, boolean onJetty, int status) {
    return spellings.stream().filter(s -> s.expected(onJetty) == status).count();
  }
}
