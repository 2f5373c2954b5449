package dev.guard.spring.boot;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardedResource;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.core.ResolvableType;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;

/**
 * A {@link Guarded} method as resolved when its bean is created: its resource, how its result is
 * guarded, and its fallbacks, checked against its signature.
 */
final class GuardedMethod {

  /** How the method's result is guarded. */
  enum Shape {
    /** A plain value: the call spans the method's run. */
    PLAIN,
    /** A {@code CompletionStage}: the call spans until the stage completes. */
    STAGE,
    /** A {@code Mono}: one call per subscription. */
    MONO,
    /** A {@code Flux}: one call per subscription. */
    FLUX
  }

  static final boolean REACTOR =
      ClassUtils.isPresent("reactor.core.publisher.Mono", GuardedMethod.class.getClassLoader())
          && ClassUtils.isPresent("dev.guard.reactor.GuardedPublishers",
              GuardedMethod.class.getClassLoader());

  final String resource;
  final Method method;
  final Shape shape;
  final @Nullable Fallback onRefusal;
  final @Nullable Fallback onFailure;
  /** The engine's handle on the resource, resolved at the first call. */
  volatile @Nullable GuardedResource handle;

  private GuardedMethod(String resource, Method method, Shape shape, @Nullable Fallback onRefusal,
      @Nullable Fallback onFailure) {
    this.resource = resource;
    this.method = method;
    this.shape = shape;
    this.onRefusal = onRefusal;
    this.onFailure = onFailure;
  }

  /** A fallback method and the exception type it takes (Void when it takes none). */
  record Fallback(Method method, Class<?> exceptionType, boolean takesException) {

    boolean handles(Throwable error) {
      return exceptionType.isInstance(error);
    }

    @Nullable Object invoke(Object target, @Nullable Object[] args, Throwable error)
        throws Throwable {
      @Nullable Object[] all = takesException ? Arrays.copyOf(args, args.length + 1) : args;
      if (takesException) {
        all[args.length] = error;
      }
      try {
        return method.invoke(target, all);
      } catch (InvocationTargetException failed) {
        throw failed.getCause() != null ? failed.getCause() : failed;
      }
    }
  }

  /**
   * Resolves and checks a guarded method of a bean class.
   *
   * @throws IllegalStateException naming the method when the annotation or a fallback is wrong
   */
  static GuardedMethod resolve(Class<?> beanClass, Method method, Guarded guarded) {
    String where = "@Guarded(\"" + guarded.value() + "\") on " + describe(beanClass, method);
    if (guarded.value().isBlank()) {
      throw new IllegalStateException(where + ": the resource name must not be blank");
    }
    if (Modifier.isStatic(method.getModifiers()) || Modifier.isPrivate(method.getModifiers())
        || Modifier.isFinal(method.getModifiers())) {
      throw new IllegalStateException(where + ": a guarded method must be neither static, "
          + "private nor final, since calls reach it through a proxy");
    }
    Shape shape = shapeOf(method, where);
    Fallback onRefusal = guarded.onRefusal().isEmpty() ? null
        : fallback(beanClass, method, guarded.onRefusal(), "onRefusal", RefusedException.class,
            false, where);
    Fallback onFailure = guarded.onFailure().isEmpty() ? null
        : fallback(beanClass, method, guarded.onFailure(), "onFailure", Throwable.class, true,
            where);
    return new GuardedMethod(guarded.value(), method, shape, onRefusal, onFailure);
  }

  private static Shape shapeOf(Method method, String where) {
    Class<?>[] params = method.getParameterTypes();
    if (params.length > 0
        && params[params.length - 1].getName().equals("kotlin.coroutines.Continuation")) {
      throw new IllegalStateException(where + ": a suspending function cannot be guarded here "
          + "(its call would end at its first suspension); return a Mono, a Flux or a "
          + "CompletionStage");
    }
    Class<?> type = method.getReturnType();
    if (CompletionStage.class.isAssignableFrom(type)) {
      return Shape.STAGE;
    }
    String name = type.getName();
    if (name.equals("reactor.core.publisher.Mono") || name.equals("reactor.core.publisher.Flux")) {
      if (!REACTOR) {
        throw new IllegalStateException(where + ": returns " + type.getSimpleName()
            + ", which needs guard-reactor on the class path");
      }
      return name.endsWith("Mono") ? Shape.MONO : Shape.FLUX;
    }
    if (name.startsWith("reactor.core.publisher.") || name.equals("org.reactivestreams.Publisher")
        || name.startsWith("kotlinx.coroutines.")) {
      throw new IllegalStateException(where + ": returns " + name
          + "; guarded methods return a plain value, a CompletionStage, a Mono or a Flux");
    }
    return Shape.PLAIN;
  }

  private static Fallback fallback(Class<?> beanClass, Method guarded, String name, String role,
      Class<? extends Throwable> base, boolean exceptionRequired, String where) {
    Class<?>[] params = guarded.getParameterTypes();
    List<Method> named = Arrays.stream(ReflectionUtils.getUniqueDeclaredMethods(beanClass))
        .filter(m -> m.getName().equals(name))
        .toList();
    String expected = name + "(" + names(params) + (exceptionRequired ? ", <exception type>)"
        : ") or " + name + "(" + names(params) + (params.length == 0 ? "" : ", ")
            + "RefusedException)");
    if (named.isEmpty()) {
      throw new IllegalStateException(where + ": " + role + " names '" + name + "', but "
          + beanClass.getSimpleName() + " has no such method; expected " + expected);
    }
    for (Method candidate : named) {
      Class<?>[] own = candidate.getParameterTypes();
      boolean same = own.length >= params.length
          && Arrays.equals(Arrays.copyOf(own, params.length), params);
      if (!same) {
        continue;
      }
      Class<?> exceptionType;
      boolean takesException;
      if (own.length == params.length && !exceptionRequired) {
        exceptionType = base;
        takesException = false;
      } else if (own.length == params.length + 1 && base.isAssignableFrom(own[params.length])) {
        exceptionType = own[params.length];
        takesException = true;
        if (exceptionRequired && RefusedException.class.isAssignableFrom(exceptionType)) {
          throw new IllegalStateException(where + ": " + role + " '" + name + "' takes "
              + exceptionType.getSimpleName() + ", but a refusal is never a failure: name it "
              + "in onRefusal");
        }
      } else {
        continue;
      }
      checkReturnType(guarded, candidate, role, where);
      if (Modifier.isStatic(candidate.getModifiers())) {
        throw new IllegalStateException(where + ": " + role + " '" + name + "' must not be static");
      }
      ReflectionUtils.makeAccessible(candidate);
      return new Fallback(candidate, exceptionType, takesException);
    }
    throw new IllegalStateException(where + ": " + role + " names '" + name + "', but no method "
        + "of that name takes the right parameters: expected " + expected + ", found "
        + named.stream().map(m -> name + "(" + names(m.getParameterTypes()) + ")")
            .collect(Collectors.joining(", ")));
  }

  private static void checkReturnType(Method guarded, Method fallback, String role, String where) {
    ResolvableType wanted = ResolvableType.forMethodReturnType(guarded);
    ResolvableType given = ResolvableType.forMethodReturnType(fallback);
    boolean fits = guarded.getReturnType() == void.class
        ? fallback.getReturnType() == void.class
        : ClassUtils.resolvePrimitiveIfNecessary(guarded.getReturnType()).isAssignableFrom(
            ClassUtils.resolvePrimitiveIfNecessary(fallback.getReturnType()))
            && wanted.isAssignableFrom(given);
    if (!fits) {
      throw new IllegalStateException(where + ": " + role + " '" + fallback.getName()
          + "' returns " + given + ", which does not fit the guarded method's " + wanted);
    }
  }

  private static String describe(Class<?> beanClass, Method method) {
    return beanClass.getSimpleName() + "." + method.getName() + "("
        + names(method.getParameterTypes()) + ")";
  }

  private static String names(Class<?>[] types) {
    return Arrays.stream(types).map(Class::getSimpleName).collect(Collectors.joining(", "));
  }
}
