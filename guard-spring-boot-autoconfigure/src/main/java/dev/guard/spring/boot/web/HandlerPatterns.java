package dev.guard.spring.boot.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Finds, before the {@code DispatcherServlet} runs, the pattern of the handler that will serve a
 * request ({@code /orders/{id}}), by asking the application's handler mappings in the
 * dispatcher's order, as the dispatcher will: the first mapping with a handler sets {@link
 * HandlerMapping#BEST_MATCHING_PATTERN_ATTRIBUTE}. The mappings work on a view of the request
 * whose attributes are its own, so nothing they set stays on the request the dispatcher sees.
 * This is the lookup Spring's {@code HandlerMappingIntrospector} makes for filters that need to
 * know the handler; the mappings come from it.
 */
final class HandlerPatterns {

  private final Supplier<List<HandlerMapping>> source;
  private volatile @Nullable List<HandlerMapping> mappings;

  /** Takes the mappings from {@code source} on the first request that finds some. */
  HandlerPatterns(Supplier<List<HandlerMapping>> source) {
    this.source = source;
  }

  private List<HandlerMapping> mappings() {
    List<HandlerMapping> known = mappings;
    if (known == null) {
      known = List.copyOf(source.get());
      if (!known.isEmpty()) {
        mappings = known;
      }
    }
    return known;
  }

  /** A request as the mappings see it: parsed path, attributes of its own. */
  static final class Lookup extends HttpServletRequestWrapper {

    private final Map<String, Object> attributes = new HashMap<>();
    private final Set<String> removed = new HashSet<>();
    final RequestPath path;

    Lookup(HttpServletRequest request) {
      super(request);
      this.path = ServletRequestPathUtils.parseAndCache(this);
    }

    PathContainer pathWithinApplication() {
      return path.pathWithinApplication();
    }

    @Override
    public @Nullable Object getAttribute(String name) {
      Object own = attributes.get(name);
      if (own != null || removed.contains(name)) {
        return own;
      }
      return super.getAttribute(name);
    }

    @Override
    public void setAttribute(String name, @Nullable Object value) {
      if (value == null) {
        removeAttribute(name);
        return;
      }
      attributes.put(name, value);
      removed.remove(name);
    }

    @Override
    public void removeAttribute(String name) {
      attributes.remove(name);
      removed.add(name);
    }

    @Override
    public Enumeration<String> getAttributeNames() {
      Set<String> names = new HashSet<>(Collections.list(super.getAttributeNames()));
      names.removeAll(removed);
      names.addAll(attributes.keySet());
      return Collections.enumeration(names);
    }
  }

  /**
   * Returns the best-matching pattern of the handler the dispatcher will choose, or null when no
   * mapping has a handler for the request (or a mapping refuses it, as for a method it does not
   * support).
   *
   * @param lookup the request, as {@link Lookup}
   */
  @Nullable String patternOf(Lookup lookup) {
    for (HandlerMapping mapping : mappings()) {
      HandlerExecutionChain chain;
      try {
        chain = mapping.getHandler(lookup);
      } catch (Exception refused) { // 405, 406 and the like: the dispatcher answers it
        return null;
      }
      if (chain != null) {
        return lookup.getAttribute(HandlerMapping.BEST_MATCHING_PATTERN_ATTRIBUTE)
            instanceof String pattern ? pattern : null;
      }
    }
    return null;
  }
}
