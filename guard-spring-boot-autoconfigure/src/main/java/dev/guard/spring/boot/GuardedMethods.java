package dev.guard.spring.boot;

import dev.guard.api.Entry;
import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.engine.GuardedResource;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.springframework.aop.framework.autoproxy.AbstractBeanFactoryAwareAdvisingPostProcessor;
import org.springframework.aop.support.AopUtils;
import org.springframework.aop.support.DefaultPointcutAdvisor;
import org.springframework.aop.support.annotation.AnnotationMatchingPointcut;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.core.annotation.AnnotationUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Proxies the beans that have {@link Guarded} methods and guards their calls. Each bean's guarded
 * methods are resolved and checked as the bean is created, so a wrong annotation or fallback fails
 * the start-up; calls then find their plan in a map, and take the engine's resource handle that
 * was resolved once.
 */
final class GuardedMethods extends AbstractBeanFactoryAwareAdvisingPostProcessor {

  private static final long serialVersionUID = 1L;

  /** Told of each refusal a guarded method meets, on the calling thread. */
  interface RefusalObserver {
    void refused(RefusedException refusal);
  }

  @SuppressWarnings("serial")
  private final Map<Method, GuardedMethod> plans = new ConcurrentHashMap<>();

  /**
   * Guards the methods; {@code order} places this post-processor among those of other method
   * annotations. Each one that finds a bean already proxied puts its advice first, so the one
   * applied last, the highest order, runs outermost.
   */
  GuardedMethods(ObjectProvider<GuardEngine> engine, ObjectProvider<RefusalObserver> observers,
      int order) {
    setProxyTargetClass(true);
    setOrder(order);
    setBeforeExistingAdvisors(true);
    this.advisor = new DefaultPointcutAdvisor(
        AnnotationMatchingPointcut.forMethodAnnotation(Guarded.class),
        new Interceptor(plans, engine, observers));
  }

  @Override
  public Object postProcessAfterInitialization(Object bean, String beanName) {
    Class<?> type = AopUtils.getTargetClass(bean);
    if (!AnnotationUtils.isCandidateClass(type, Guarded.class)) {
      return bean; // java.*, and classes that cannot carry the annotation
    }
    ReflectionUtils.doWithMethods(type, method -> {
      Guarded guarded = AnnotatedElementUtils.findMergedAnnotation(method, Guarded.class);
      if (guarded != null && !plans.containsKey(method)) {
        try {
          plans.put(method, GuardedMethod.resolve(type, method, guarded));
        } catch (IllegalStateException wrong) {
          throw new BeanCreationException(beanName, String.valueOf(wrong.getMessage()), wrong);
        }
      }
    }, method -> method.isAnnotationPresent(Guarded.class));
    return super.postProcessAfterInitialization(bean, beanName);
  }

  /** The advice: enters the resource, runs the method, exits; falls back where asked. */
  private static final class Interceptor implements MethodInterceptor {
    private final Map<Method, GuardedMethod> plans;
    private final ObjectProvider<GuardEngine> engines;
    private final ObjectProvider<RefusalObserver> observers;
    private final Map<String, GuardedResource> resources = new ConcurrentHashMap<>();
    private volatile @Nullable Object publishers;

    Interceptor(Map<Method, GuardedMethod> plans, ObjectProvider<GuardEngine> engines,
        ObjectProvider<RefusalObserver> observers) {
      this.plans = plans;
      this.engines = engines;
      this.observers = observers;
    }

    @Override
    public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
      Object target = invocation.getThis();
      GuardedMethod plan = plans.get(invocation.getMethod());
      if (plan == null && target != null) { // called through an interface or a bridge
        plan = plans.get(AopUtils.getMostSpecificMethod(invocation.getMethod(), target.getClass()));
      }
      if (plan == null || target == null) {
        return invocation.proceed();
      }
      return switch (plan.shape) {
        case PLAIN -> plain(plan, invocation, target);
        case STAGE -> stage(plan, invocation, target);
        case MONO, FLUX -> reactive().guard(plan, invocation, target, this::refused);
      };
    }

    private GuardedResource resource(GuardedMethod plan) {
      GuardedResource resource = plan.handle;
      if (resource == null) { // the first call: the engine may be created after the bean
        resource = resources.computeIfAbsent(plan.resource, n -> engines.getObject().resource(n));
        plan.handle = resource;
      }
      return resource;
    }

    private ReactiveCalls reactive() {
      Object calls = publishers;
      if (calls == null) {
        calls = new ReactiveCalls(engines);
        publishers = calls;
      }
      return (ReactiveCalls) calls;
    }

    private void refused(RefusedException refusal) {
      observers.forEach(observer -> observer.refused(refusal));
    }

    /** Serves a refusal with the refusal fallback where it takes that kind; else throws it. */
    private @Nullable Object serveRefusal(GuardedMethod plan, Object target,
        @Nullable Object[] args, RefusedException refused) throws Throwable {
      refused(refused);
      GuardedMethod.Fallback fallback = plan.onRefusal;
      if (fallback != null && fallback.handles(refused)) {
        return fallback.invoke(target, args, refused);
      }
      throw refused;
    }

    private @Nullable Object plain(GuardedMethod plan, MethodInvocation invocation, Object target)
        throws Throwable {
      @Nullable Object[] args = invocation.getArguments();
      Entry entry;
      try {
        entry = resource(plan).enter(args);
      } catch (RefusedException refused) {
        return serveRefusal(plan, target, args, refused);
      }
      Object result;
      try {
        result = invocation.proceed();
      } catch (Throwable thrown) {
        entry.recordError(thrown);
        entry.close(); // the call ends, its error counted, before a fallback runs
        GuardedMethod.Fallback fallback = plan.onFailure;
        if (fallback != null && fallback.handles(thrown)) {
          return fallback.invoke(target, args, thrown);
        }
        throw thrown;
      }
      entry.close();
      return result;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // the watchers' own stages are nobody's
    private @Nullable Object stage(GuardedMethod plan, MethodInvocation invocation, Object target)
        throws Throwable {
      @Nullable Object[] args = invocation.getArguments();
      Entry entry;
      try {
        entry = resource(plan).enterAsync(args);
      } catch (RefusedException refused) {
        try {
          return serveRefusal(plan, target, args, refused);
        } catch (RefusedException unserved) {
          return CompletableFuture.failedFuture(unserved);
        }
      }
      CompletionStage<?> stage;
      try {
        stage = (CompletionStage<?>) invocation.proceed();
      } catch (Throwable thrown) {
        entry.recordError(thrown);
        entry.close();
        stage = CompletableFuture.failedFuture(thrown);
      }
      if (stage == null) {
        entry.close();
        return null;
      }
      AtomicBoolean ended = new AtomicBoolean();
      CompletableFuture<Object> result = new CompletableFuture<>();
      stage.whenComplete((value, error) -> {
        try {
          if (ended.compareAndSet(false, true)) {
            if (error != null) {
              entry.recordError(unwrap(error));
            }
            entry.close();
          }
        } finally {
          if (error != null) {
            result.completeExceptionally(error);
          } else {
            result.complete(value);
          }
        }
      });
      CompletionStage<?> returned = withFallback(plan, target, args, result);
      // the caller completing (most often cancelling) its stage first ends the call, as no error
      returned.whenComplete((value, error) -> {
        if (ended.compareAndSet(false, true)) {
          entry.close();
        }
      });
      return returned;
    }

    private CompletionStage<?> withFallback(GuardedMethod plan, Object target,
        @Nullable Object[] args, CompletableFuture<Object> result) {
      GuardedMethod.Fallback fallback = plan.onFailure;
      if (fallback == null) {
        return result;
      }
      return result.exceptionallyCompose(error -> {
        Throwable cause = unwrap(error);
        if (!fallback.handles(cause)) {
          return CompletableFuture.failedFuture(cause);
        }
        return served(() -> (CompletionStage<?>) fallback.invoke(target, args, cause));
      });
    }

    @SuppressWarnings("unchecked")
    private static <T> CompletionStage<T> served(Call<CompletionStage<?>> fallback) {
      try {
        CompletionStage<?> stage = fallback.run();
        return stage == null
            ? CompletableFuture.failedFuture(new NullPointerException("the fallback returned null"))
            : (CompletionStage<T>) stage;
      } catch (Throwable thrown) {
        return CompletableFuture.failedFuture(thrown);
      }
    }

    private static Throwable unwrap(Throwable error) {
      Throwable cause = error;
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      return cause;
    }
  }

  /** A call that may throw anything. */
  interface Call<T> {
    @Nullable T run() throws Throwable;
  }
}
