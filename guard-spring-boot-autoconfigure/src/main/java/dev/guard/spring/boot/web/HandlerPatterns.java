package dev.guard.spring.boot.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Enumeration;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactoryUtils;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.context.ApplicationContext;
import org.springframework.core.annotation.AnnotationAwareOrderComparator;
import org.springframework.http.server.PathContainer;
import org.springframework.http.server.RequestPath;
import org.springframework.web.servlet.DispatcherServlet;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.util.ServletRequestPathUtils;

/**
 * Finds, before the {@code DispatcherServlet} runs, the pattern of the handler that will serve a
 * request ({@code /orders/{id}}), by asking the application's handler mappings in the
 * dispatcher's order, as the dispatcher will: the first mapping with a handler sets {@link
 * HandlerMapping#BEST_MATCHING_PATTERN_ATTRIBUTE}. The mappings work on a view of the request
 * whose attributes are its own, so nothing they set stays on the request the dispatcher sees.
 * This is the lookup Spring's {@code HandlerMappingIntrospector} made for filters that need to
 * know the handler (deprecated in Spring Framework 7), on the dispatcher's own mappings.
 */
final class HandlerPatterns {

  private final ObjectProvider<DispatcherServlet> dispatcher;
  private final ApplicationContext context;
  private volatile @Nullable List<HandlerMapping> mappings;

  /**
   * Asks the dispatcher's handler mappings once it is initialized (a container initializes a
   * servlet before the filters of its first request run), and keeps them; before, the mappings
   * it will detect: every {@link HandlerMapping} bean of the context, in order.
   */
  HandlerPatterns(ObjectProvider<DispatcherServlet> dispatcher, ApplicationContext context) {
    this.dispatcher = dispatcher;
    this.context = context;
  }

  private List<HandlerMapping> mappings() {
    List<HandlerMapping> known = mappings;
    if (known != null) {
      return known;
    }
    DispatcherServlet servlet = dispatcher.getIfAvailable();
    List<HandlerMapping> own = servlet == null ? null : servlet.getHandlerMappings();
    if (own != null) {
      known = List.copyOf(own);
      mappings = known;
      return known;
    }
    List<HandlerMapping> beans = new ArrayList<>(BeanFactoryUtils.beansOfTypeIncludingAncestors(
        context, HandlerMapping.class, true, false).values());
    AnnotationAwareOrderComparator.sort(beans);
    return beans;
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
