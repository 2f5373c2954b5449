package dev.guard.spring.boot;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Guards a bean method: every call is one call of the named resource, under the rules the engine
 * has for it ({@code guard.rules}, a rules file, Redis, guards declared in code). Works on methods
 * returning plain values, {@code CompletionStage}, and Reactor's {@code Mono} and {@code Flux}
 * (one call per subscription, with guard-reactor on the class path). The method's arguments are
 * the call's arguments for per-value rules (plain and {@code CompletionStage} methods).
 *
 * <pre>{@code
 * @Guarded(value = "createOrder", onRefusal = "busy", onFailure = "failed")
 * public Receipt create(Order order) { ... }
 *
 * Receipt busy(Order order, RefusedException refused) { return Receipt.later(order); }
 * Receipt failed(Order order, PaymentException failure) { return Receipt.unpaid(order); }
 * }</pre>
 *
 * <p>Fallbacks are methods of the same bean, named here, resolved and checked when the bean is
 * created: a name that matches no method, a method whose parameters are not the guarded method's
 * (plus the exception), or whose return type does not fit, fails the start-up naming the guarded
 * method. The refusal fallback takes the guarded method's parameters, optionally followed by a
 * {@code RefusedException} (or one of its kinds: then only refusals of that kind fall back); the
 * failure fallback takes them followed by the exception type it handles (a refusal is never a
 * failure). Fallbacks of {@code CompletionStage}, {@code Mono} and {@code Flux} methods return the
 * same type. Beans are proxied by Spring AOP (class proxies), so the method must be overridable
 * (not final or private; in Kotlin, an open class or the spring compiler plugin) and be called
 * through the bean, not from inside it. docs/SPRING-BOOT.md has the details.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.METHOD)
public @interface Guarded {

  /**
   * The resource the calls are calls of.
   *
   * @return the resource name
   */
  String value();

  /**
   * The method of the same bean that serves a refused call; none when empty (the refusal reaches
   * the caller as a {@code RefusedException}).
   *
   * @return the refusal fallback's name
   */
  String onRefusal() default "";

  /**
   * The method of the same bean that serves a call that failed with the exception type it takes;
   * none when empty (the exception reaches the caller).
   *
   * @return the failure fallback's name
   */
  String onFailure() default "";
}
