package dev.guard.http;

import dev.guard.api.BlockedException;
import dev.guard.api.EntryType;
import dev.guard.engine.ContextScope;
import dev.guard.engine.Entry;
import dev.guard.engine.GuardedResource;
import dev.guard.http.internal.ResourceTable;
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

  /** Opens the request's context on this thread: the entrance and the caller's origin. */
  ContextScope openContext(InboundRequest request) {
    String origin = Objects.requireNonNull(settings.originParser().apply(request), "origin");
    return settings.engine().enterContext(settings.entranceName(), origin);
  }

  /**
   * Enters the request's resource; the entry is detached from this thread so that it can exit on
   * whichever thread completes the response.
   *
   * @throws BlockedException if guard refuses the request
   */
  Entry enter(InboundRequest request) {
    String path = Objects.requireNonNull(settings.cleaner().apply(request.path()), "cleaned path");
    GuardedResource resource = resources.handle(request.method() + " " + path);
    return resource.enterAsync();
  }

  RefusalResponse refusal(BlockedException refused) {
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
