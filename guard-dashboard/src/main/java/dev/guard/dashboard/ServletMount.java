package dev.guard.dashboard;

/**
 * Makes the dashboard's servlet. Kept apart from {@link GuardDashboard} so that loading and
 * verifying the dashboard never needs the Servlet API, which only a servlet container provides:
 * this class is loaded only when {@link GuardDashboard#servlet()} is called.
 */
final class ServletMount {

  private ServletMount() {}

  static jakarta.servlet.http.HttpServlet servlet(GuardDashboard dashboard) {
    return new GuardDashboardServlet(dashboard);
  }
}
