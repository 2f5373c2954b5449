package dev.guard.dsl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The DSL keeps no global: no class of guard-dsl has a static field that can change, so no guard
 * hands anything to another module through one (a guard's detached calls come from the guard).
 */
class Issue36StaticStateTest {

  @Test
  void dslClasses_haveNoMutableStaticField() throws IOException, URISyntaxException {
    Path classes = Path.of(Guard.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    List<String> mutable;
    try (Stream<Path> files = Files.walk(classes)) {
      mutable = files
          .map(file -> classes.relativize(file).toString().replace('\\', '/'))
          .filter(name -> name.endsWith(".class") && !name.endsWith("-info.class"))
          .map(name -> name.substring(0, name.length() - ".class".length()).replace('/', '.'))
          .flatMap(name -> Stream.of(load(name).getDeclaredFields()))
          .filter(field -> Modifier.isStatic(field.getModifiers())
              && !Modifier.isFinal(field.getModifiers()))
          .map(Field::toString)
          .toList();
    }

    assertThat(mutable).isEmpty();
  }

  private static Class<?> load(String name) {
    try {
      return Class.forName(name, false, Guard.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new IllegalStateException(name, e);
    }
  }
}
