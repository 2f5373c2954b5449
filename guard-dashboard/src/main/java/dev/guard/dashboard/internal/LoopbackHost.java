package dev.guard.dashboard.internal;

import java.util.Locale;
import org.jspecify.annotations.Nullable;

/**
 * The Host check of a dashboard listening on a loopback address (docs/DASHBOARD.md, "DNS
 * rebinding"): the header must be exactly {@code localhost}, a dotted-quad address in
 * 127.0.0.0/8 or {@code [::1]}, each with or without a port. Names that merely start like one
 * ({@code 127.0.0.1.nip.io}, {@code localhost.evil.example}, {@code [::1].evil.example}) are other
 * hosts, which a foreign site can point at 127.0.0.1.
 */
final class LoopbackHost {

  private LoopbackHost() {}

  /** Whether a Host header names a loopback host, case-insensitively. */
  static boolean matches(@Nullable String header) {
    if (header == null) {
      return false;
    }
    String host = header.trim().toLowerCase(Locale.ROOT);
    int end = host.startsWith("[") ? host.indexOf(']') + 1 : host.indexOf(':');
    if (end <= 0) {
      end = host.startsWith("[") ? 0 : host.length();
    }
    String name = host.substring(0, end);
    String rest = host.substring(end);
    return (rest.isEmpty() || rest.startsWith(":") && isPort(rest.substring(1)))
        && (name.equals("localhost") || name.equals("[::1]") || isLoopbackQuad(name));
  }

  private static boolean isPort(String text) {
    return !text.isEmpty() && text.length() <= 5 && text.chars().allMatch(LoopbackHost::isDigit)
        && Integer.parseInt(text) <= 65535;
  }

  private static boolean isLoopbackQuad(String name) {
    String[] parts = name.split("\\.", -1);
    if (parts.length != 4 || !parts[0].equals("127")) {
      return false;
    }
    for (String part : parts) {
      if (part.isEmpty() || part.length() > 3 || !part.chars().allMatch(LoopbackHost::isDigit)
          || Integer.parseInt(part) > 255) {
        return false;
      }
    }
    return true;
  }

  private static boolean isDigit(int c) {
    return c >= '0' && c <= '9';
  }
}
