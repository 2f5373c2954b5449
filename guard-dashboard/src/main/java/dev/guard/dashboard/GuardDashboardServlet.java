package dev.guard.dashboard;

import dev.guard.dashboard.internal.DashboardCore;
import dev.guard.dashboard.internal.DashboardRequest;
import dev.guard.dashboard.internal.DashboardResponse;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Map;
import java.util.Objects;

/** The servlet of {@link GuardDashboard#servlet()}: one request, one call of the core. */
final class GuardDashboardServlet extends HttpServlet {

  private static final long serialVersionUID = 1L;

  private final transient DashboardCore core;

  /** Creates the servlet; {@link IllegalArgumentException} if the dashboard has no secret. */
  GuardDashboardServlet(GuardDashboard dashboard) {
    Objects.requireNonNull(dashboard, "dashboard");
    if (!dashboard.hasSecret()) {
      throw new IllegalArgumentException("dashboard must have an accessToken(..) or"
          + " credentials(..) to be served by a servlet: a servlet container may listen on any"
          + " address");
    }
    this.core = dashboard.core();
  }

  @Override
  protected void service(HttpServletRequest request, HttpServletResponse response)
      throws IOException {
    String path = request.getPathInfo();
    if (path == null) {
      // mapped at /guard/* and asked for /guard: relative links need the trailing slash
      response.sendRedirect(request.getRequestURI() + "/");
      return;
    }
    DashboardResponse answer = core.handle(new DashboardRequest(
        request.getMethod(),
        path,
        DashboardRequest.parseQuery(request.getQueryString()),
        request::getHeader,
        request.getInputStream(),
        request.isSecure(),
        request.getRemoteAddr()), false);
    response.setStatus(answer.status());
    for (Map.Entry<String, String> header : answer.headers().entrySet()) {
      response.setHeader(header.getKey(), header.getValue());
    }
    byte[] body = answer.body();
    response.setContentLength(body.length);
    try (OutputStream out = response.getOutputStream()) {
      out.write(body);
    }
  }
}
