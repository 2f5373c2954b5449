package dev.guard.engine;

/** The engine that protects resources; being built. */
public final class GuardEngine {
  private GuardEngine() {}
}
