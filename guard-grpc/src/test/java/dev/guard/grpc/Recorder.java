package dev.guard.grpc;

import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/** A client's observer that keeps the messages and the status the call ended with. */
final class Recorder implements StreamObserver<String> {

  final List<String> messages = new CopyOnWriteArrayList<>();
  private final CompletableFuture<Status> end = new CompletableFuture<>();

  @Override
  public void onNext(String value) {
    messages.add(value);
  }

  @Override
  public void onError(Throwable t) {
    end.complete(Status.fromThrowable(t));
  }

  @Override
  public void onCompleted() {
    end.complete(Status.OK);
  }

  /** The status the call ended with, waiting for it at most 10 seconds. */
  Status status() throws Exception {
    return end.get(10, TimeUnit.SECONDS);
  }
}
