package dev.guard.webapps;

import dev.guard.spring.boot.Guarded;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import reactor.core.publisher.Mono;

/** A bean whose methods are guarded as the resource {@code quote}, without fallbacks. */
public class Quotes {

  /** The resource of every method. */
  public static final String RESOURCE = "quote";

  @Guarded(RESOURCE)
  public String quote(String item) {
    return "quote " + item;
  }

  @Guarded(RESOURCE)
  public Mono<String> later(String item) {
    return Mono.fromSupplier(() -> "quote " + item);
  }

  @Guarded(RESOURCE)
  public CompletionStage<String> quoteAsync(String item) {
    return CompletableFuture.completedFuture("quote " + item);
  }
}
