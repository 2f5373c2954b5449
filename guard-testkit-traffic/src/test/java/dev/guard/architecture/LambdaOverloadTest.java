package dev.guard.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * No public method name is overloaded on different functional interfaces: a Kotlin lambda could
 * match several of them and the call would not compile ("overload resolution ambiguity").
 */
class LambdaOverloadTest {

  @Test
  void publicApi_neverOverloadsANameOnFunctionalInterfaces() {
    List<String> ambiguous = new ArrayList<>();
    for (Class<?> type : List.of(Guard.class, GuardEngine.class, GuardEngine.Builder.class)) {
      Map<String, List<Method>> byName = Arrays.stream(type.getMethods())
          .filter(method -> method.getDeclaringClass() == type)
          .filter(method -> Modifier.isPublic(method.getModifiers()))
          .filter(method -> Arrays.stream(method.getParameterTypes())
              .anyMatch(LambdaOverloadTest::isFunctional))
          .collect(Collectors.groupingBy(Method::getName));
      byName.forEach((name, methods) -> {
        if (methods.size() > 1) {
          ambiguous.add(type.getSimpleName() + "." + name);
        }
      });
    }

    assertThat(ambiguous).isEmpty();
  }

  private static boolean isFunctional(Class<?> parameter) {
    return parameter.isInterface()
        && (parameter.isAnnotationPresent(FunctionalInterface.class)
            || parameter.getPackageName().startsWith("java.util.function")
            || parameter == Runnable.class
            || parameter == java.util.concurrent.Callable.class);
  }
}
