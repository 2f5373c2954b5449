package dev.guard.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.guard.api.RefusedException;
import dev.guard.engine.GuardEngine;
import dev.guard.spring.boot.Guarded;
import dev.guard.testkit.ManualClock;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.FileSystemGeneratedFiles;
import org.springframework.aot.generate.GeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.SpringApplicationRunListener;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * The example through Spring's AOT processing, as a native build would run it: the application
 * context is prepared and processed ahead of time, the generated code is compiled onto the test
 * class path, and the shop then starts with {@code spring.aot.enabled=true} from the generated
 * initializer alone and answers a sixth order read in a second with 429. The hints the processing
 * collected name what guard reads by resource name and the {@link Guarded} fallbacks it invokes.
 * (No native image is built: that needs GraalVM.)
 */
class Issue39AotTest {

  static final ManualClock CLOCK = new ManualClock();

  /** An engine on the stopped clock and a bean with a guarded method and its fallback. */
  @Configuration(proxyBeanMethods = false)
  static class AotExtras {
    @Bean(destroyMethod = "close")
    GuardEngine guardEngine() {
      return GuardEngine.builder().clock(CLOCK).build();
    }

    @Bean
    Stock stock() {
      return new Stock();
    }
  }

  /** A guarded method whose refusal fallback is found by its name. */
  static class Stock {
    @Guarded(value = "stock", onRefusal = "unknown")
    public String count(String item) {
      return item + ": 3";
    }

    public String unknown(String item, RefusedException refusal) {
      return item + ": unknown";
    }
  }

  private static RuntimeHints hints = new RuntimeHints();

  @BeforeAll
  static void processAheadOfTime() throws IOException {
    Path classes = Path.of(Issue39AotTest.class.getProtectionDomain().getCodeSource().getLocation()
        .getPath());
    Path sources = classes.resolveSibling("aot-test-sources");
    deleteGenerated(classes, sources);
    FileSystemGeneratedFiles files = new FileSystemGeneratedFiles(kind ->
        kind == GeneratedFiles.Kind.CLASS ? classes : sources.resolve(kind.name()));
    DefaultGenerationContext generation =
        new DefaultGenerationContext(new ClassNameGenerator(ClassName.get(ShopApplication.class)),
            files);
    System.setProperty("spring.aot.processing", "true");
    try (GenericApplicationContext context = prepared()) {
      new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
    } finally {
      System.clearProperty("spring.aot.processing");
    }
    generation.writeGeneratedContent();
    hints = generation.getRuntimeHints();
    compile(sources.resolve(GeneratedFiles.Kind.SOURCE.name()), classes);
  }

  /** What an earlier run generated: the generated files are never overwritten. */
  private static void deleteGenerated(Path classes, Path sources) throws IOException {
    List<Path> generated;
    try (Stream<Path> walk = Stream.concat(Files.walk(classes),
        Files.exists(sources) ? Files.walk(sources) : Stream.empty())) {
      generated = walk.filter(Files::isRegularFile).filter(p -> p.startsWith(sources)
          || p.getFileName().toString().contains("__")
          || p.getFileName().toString().contains("$$SpringCGLIB$$")).toList();
    }
    for (Path file : generated) {
      Files.delete(file);
    }
  }

  /** The example's context with its bean definitions loaded, as the AOT processor takes it. */
  private static GenericApplicationContext prepared() {
    SpringApplication application = new SpringApplication(ShopApplication.class, AotExtras.class);
    application.setMainApplicationClass(ShopApplication.class);
    try {
      SpringApplication.withHook(app -> new SpringApplicationRunListener() {
        @Override
        public void contextLoaded(ConfigurableApplicationContext context) {
          throw new SpringApplication.AbandonedRunException(context);
        }
      }, () -> application.run());
    } catch (SpringApplication.AbandonedRunException loaded) {
      return (GenericApplicationContext) loaded.getApplicationContext();
    }
    throw new IllegalStateException("the application ran past loading its context");
  }

  private static void compile(Path sources, Path classes) throws IOException {
    List<String> files;
    try (Stream<Path> walk = Files.walk(sources)) {
      files = walk.filter(p -> p.toString().endsWith(".java")).map(Path::toString).toList();
    }
    assertThat(files).as("generated sources").isNotEmpty();
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    List<String> arguments = Stream.concat(Stream.of("-proc:none", "-nowarn", "-d",
        classes.toString(), "-cp", System.getProperty("java.class.path")), files.stream()).toList();
    assertThat(javac.run(null, null, null, arguments.toArray(String[]::new)))
        .as("javac exit status of the generated sources").isZero();
  }

  @Test
  void aotStartedShop_refusesTheSixthOrderReadInASecond() throws Exception {
    ConfigurableApplicationContext shop;
    System.setProperty("spring.aot.enabled", "true");
    try {
      SpringApplication application = new SpringApplication(ShopApplication.class);
      application.setMainApplicationClass(ShopApplication.class);
      shop = application.run("--server.port=0");
    } finally {
      System.clearProperty("spring.aot.enabled");
    }
    try (shop) {
      int port = ((WebServerApplicationContext) shop).getWebServer().getPort();
      HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
          .connectTimeout(Duration.ofSeconds(10)).build();
      int[] statuses = new int[6];
      for (int i = 0; i < statuses.length; i++) {
        statuses[i] = client.send(HttpRequest.newBuilder(
            URI.create("http://127.0.0.1:" + port + "/orders/" + (i + 1)))
            .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString())
            .statusCode();
      }
      assertThat(statuses).containsExactly(200, 200, 200, 200, 200, 429);
      assertThat(shop.getBean(Stock.class).count("book")).isEqualTo("book: 3");
    }
  }

  @Test
  void hints_nameWhatGuardReadsByName() throws Exception {
    assertThat(RuntimeHintsPredicates.resource().forResource("dev/guard/redis/prelude.lua"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("dev/guard/redis/guard.lua"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("dev/guard/rules/rules.schema.json"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.resource().forResource("dev/guard/dashboard/web/index.html"))
        .accepts(hints);
    assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(
        Stock.class.getMethod("unknown", String.class, RefusedException.class))).accepts(hints);
  }
}
