package dev.guard.http;

import java.util.Objects;
import java.util.Optional;
import java.util.function.BiFunction;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * The one {@link HttpInbound.Request} of every inbound adapter: a server's request object with
 * the method and raw path the adapter read, and the adapter's functions that read a header and
 * the client address from it on demand.
 */
final class ServerRequest<R> implements HttpInbound.Request {

  private final R request;
  private final String method;
  private final String rawPath;
  private final BiFunction<? super R, String, @Nullable String> header;
  private final Function<? super R, String> remoteAddress;

  ServerRequest(R request, String method, String rawPath,
      BiFunction<? super R, String, @Nullable String> header,
      Function<? super R, String> remoteAddress) {
    this.request = Objects.requireNonNull(request, "request");
    this.method = Objects.requireNonNull(method, "method");
    this.rawPath = Objects.requireNonNull(rawPath, "rawPath");
    this.header = Objects.requireNonNull(header, "header");
    this.remoteAddress = Objects.requireNonNull(remoteAddress, "remoteAddress");
  }

  @Override
  public String method() {
    return method;
  }

  @Override
  public String path() {
    return rawPath;
  }

  @Override
  public Optional<String> header(String name) {
    return Optional.ofNullable(header.apply(request, name));
  }

  @Override
  public String remoteAddress() {
    return remoteAddress.apply(request);
  }

  @Override
  public <T> Optional<T> unwrap(Class<T> type) {
    return type.isInstance(request) ? Optional.of(type.cast(request)) : Optional.empty();
  }
}
