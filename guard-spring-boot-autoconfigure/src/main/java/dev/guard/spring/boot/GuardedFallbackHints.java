package dev.guard.spring.boot;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.beans.factory.aot.BeanRegistrationAotContribution;
import org.springframework.beans.factory.aot.BeanRegistrationAotProcessor;
import org.springframework.beans.factory.support.RegisteredBean;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Tells Spring's AOT processing about the methods {@link GuardedMethods} reaches by reflection in
 * a bean with {@link Guarded} methods: the guarded methods, read for their annotation and
 * signature, and the fallbacks {@code onRefusal} and {@code onFailure} name, which are invoked.
 * Every method of a fallback's name is registered, since the one that fits is chosen at start-up
 * by its parameters.
 */
final class GuardedFallbackHints implements BeanRegistrationAotProcessor {

  @Override
  public @Nullable BeanRegistrationAotContribution processAheadOfTime(RegisteredBean bean) {
    Class<?> type = bean.getBeanClass();
    if (!AnnotationUtils.isCandidateClass(type, Guarded.class)) {
      return null;
    }
    Set<Method> guarded = new LinkedHashSet<>();
    Set<String> fallbacks = new LinkedHashSet<>();
    ReflectionUtils.doWithMethods(type, method -> {
      Guarded annotation = AnnotatedElementUtils.findMergedAnnotation(method, Guarded.class);
      if (annotation != null) {
        guarded.add(method);
        fallbacks.add(annotation.onRefusal());
        fallbacks.add(annotation.onFailure());
      }
    });
    if (guarded.isEmpty()) {
      return null;
    }
    fallbacks.remove("");
    return (context, code) -> {
      ReflectionHints reflection = context.getRuntimeHints().reflection();
      guarded.forEach(method -> reflection.registerMethod(method, ExecutableMode.INTROSPECT));
      for (Method method : ReflectionUtils.getUniqueDeclaredMethods(type)) {
        if (fallbacks.contains(method.getName())) {
          reflection.registerMethod(method, ExecutableMode.INVOKE);
        }
      }
    };
  }
}
