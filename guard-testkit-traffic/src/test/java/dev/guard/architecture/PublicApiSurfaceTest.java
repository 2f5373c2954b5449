package dev.guard.architecture;

import dev.guard.api.EntryType;
import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.Guard;
import dev.guard.engine.GuardEngine;
import dev.guard.testkit.ManualClock;
import dev.guard.testkit.traffic.TrafficSimulator;
import java.io.IOException;
import java.io.InputStream;
import java.lang.module.ModuleDescriptor;
import java.lang.reflect.Modifier;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystem;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The public surface grows only on purpose: every public type in a package a module exports
 * (read from the module's own {@code module-info.class}) must be listed in {@code
 * api-surface.txt}, and every listed type must exist. Adding a public type means adding it to the
 * list, where a reviewer sees it.
 */
class PublicApiSurfaceTest {

  private static final List<Class<?>> MODULE_ANCHORS =
      List.of(EntryType.class, GuardEngine.class, Guard.class, ManualClock.class,
          TrafficSimulator.class);

  @Test
  void publicTypesInExportedPackages_areExactlyTheReviewedList() throws Exception {
    TreeSet<String> actual = new TreeSet<>();
    for (Class<?> anchor : MODULE_ANCHORS) {
      actual.addAll(publicTypesOf(anchor));
    }
    TreeSet<String> reviewed = reviewedList();

    TreeSet<String> unreviewed = new TreeSet<>(actual);
    unreviewed.removeAll(reviewed);
    TreeSet<String> gone = new TreeSet<>(reviewed);
    gone.removeAll(actual);
    assertThat(unreviewed).as("public types missing from api-surface.txt").isEmpty();
    assertThat(gone).as("types in api-surface.txt that no longer exist or are not public").isEmpty();
  }

  private static TreeSet<String> reviewedList() throws IOException {
    try (InputStream in = Objects.requireNonNull(
        PublicApiSurfaceTest.class.getResourceAsStream("api-surface.txt"), "api-surface.txt")) {
      TreeSet<String> names = new TreeSet<>();
      for (String line : new String(in.readAllBytes(), StandardCharsets.UTF_8).split("\n")) {
        String name = line.strip();
        if (!name.isEmpty() && !name.startsWith("#")) {
          names.add(name);
        }
      }
      return names;
    }
  }

  private static List<String> publicTypesOf(Class<?> anchor)
      throws IOException, URISyntaxException, ClassNotFoundException {
    Path location = Path.of(anchor.getProtectionDomain().getCodeSource().getLocation().toURI());
    if (Files.isDirectory(location)) {
      return publicTypesUnder(location, anchor.getClassLoader());
    }
    try (FileSystem jar = FileSystems.newFileSystem(location)) {
      return publicTypesUnder(jar.getPath("/"), anchor.getClassLoader());
    }
  }

  private static List<String> publicTypesUnder(Path root, ClassLoader loader)
      throws IOException, ClassNotFoundException {
    ModuleDescriptor module;
    try (InputStream in = Files.newInputStream(root.resolve("module-info.class"))) {
      module = ModuleDescriptor.read(in);
    }
    List<String> names = new ArrayList<>();
    for (ModuleDescriptor.Exports exports : module.exports()) {
      if (exports.isQualified()) {
        continue;
      }
      Path dir = root.resolve(exports.source().replace('.', '/'));
      try (Stream<Path> files = Files.list(dir)) {
        for (Path file : (Iterable<Path>) files::iterator) {
          String fileName = file.getFileName().toString();
          if (!fileName.endsWith(".class") || fileName.equals("package-info.class")) {
            continue;
          }
          String name = exports.source() + "." + fileName.substring(0, fileName.length() - 6);
          if (isPublic(Class.forName(name, false, loader))) {
            names.add(name);
          }
        }
      }
    }
    return names;
  }

  private static boolean isPublic(Class<?> type) {
    for (Class<?> c = type; c != null; c = c.getEnclosingClass()) {
      if (!Modifier.isPublic(c.getModifiers())) {
        return false;
      }
    }
    return !type.isAnonymousClass() && !type.isSynthetic();
  }
}
