package dev.guard.internal;

import java.util.Objects;
import org.jspecify.annotations.Nullable;

/** Holds the access {@link dev.guard.Guard} installs when it is initialised. */
final class Installed {

  private static volatile DetachedCalls.@Nullable Access access;

  private Installed() {}

  static synchronized void install(DetachedCalls.Access installed) {
    Objects.requireNonNull(installed, "access");
    if (access != null) {
      throw new IllegalStateException("the access to detached calls is installed already");
    }
    access = installed;
  }

  static DetachedCalls.Access access() {
    DetachedCalls.Access current = access;
    if (current == null) {
      throw new IllegalStateException("Guard was not initialised, so no access is installed");
    }
    return current;
  }
}
