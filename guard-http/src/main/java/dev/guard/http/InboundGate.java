package dev.guard.http;

import dev.guard.api.RefusedException;
import dev.guard.api.EntryType;
import dev.guard.api.Entry;
import dev.guard.engine.GuardedResource;
import dev.guard.http.internal.ResourceTable;
import java.util.Locale;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What the servlet filter and the JDK server filter share: naming a request's resource (bounded),
 * opening its context, building the refusal response, and recording a finished request's outcome
 * (an error status or exception) before exiting its entry.
 */
final class InboundGate {

  private final HttpInbound settings;
  private final ResourceTable resources;

  InboundGate(HttpInbound settings) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.resources = new ResourceTable(settings.engine(), EntryType.IN, settings.resourceBound(),
        HttpInbound.OVERFLOW_RESOURCE);
  }

  /**
   * The request's resource, {@code METHOD + " " + cleaned path}, with the request's context: the
   * entrance and the caller's origin.
   *
   * @param method the request method as sent
   * @param routedPath the canonical path the server routes the request by (see {@link RoutedPath})
   */
  GuardedResource handle(HttpInbound.Request request, String method, String routedPath) {
    String origin = Objects.requireNonNull(settings.originParser().apply(request), "origin");
    String path = Objects.requireNonNull(settings.cleaner().apply(routedPath), "cleaned path");
    return resources.handle(resourceMethod(method) + " " + path)
        .context(settings.entranceName(), origin);
  }

  /**
   * The method a resource is named by: upper case, and {@code HEAD} as {@code GET}, since servlets
   * answer a HEAD with their GET code ({@code HttpServlet.doHead}) and a JDK handler sees both.
   */
  static String resourceMethod(String method) {
    String upper = isUpperCase(method) ? method : method.toUpperCase(Locale.ROOT);
    return upper.equals("HEAD") ? "GET" : upper;
  }

  private static boolean isUpperCase(String method) {
    for (int i = 0; i < method.length(); i++) {
      char c = method.charAt(i);
      if (c >= 'a' && c <= 'z') {
        return false;
      }
    }
    return true;
  }

  /** The answer to a request whose path is ambiguous (see {@link RoutedPath}), never counted. */
  static final HttpInbound.RefusalResponse AMBIGUOUS_PATH = new HttpInbound.RefusalResponse(400, "application/json",
      "{\"status\":400,\"error\":\"Bad Request\",\"reason\":\"ambiguous path\"}", null);

  HttpInbound.RefusalResponse refusal(RefusedException refused) {
    return Objects.requireNonNull(settings.refusalHandler().apply(refused), "refusal response");
  }

  /**
   * Records the outcome of a finished request and exits its entry: {@code failure} if there was
   * one, else an {@link HttpStatusException} when the status counts as an error.
   *
   * @param status the response status; negative when no response was sent
   */
  void finish(Entry entry, int status, @Nullable Throwable failure) {
    try {
      if (failure != null) {
        entry.recordError(failure);
      } else if (status > 0 && settings.errorStatus().test(status)) {
        entry.recordError(new HttpStatusException(entry.resource(), status));
      }
    } finally {
      entry.close();
    }
  }

  long overflows() {
    return resources.overflows();
  }
}
