package dev.guard.examples.spring;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.guard.engine.GuardEngine;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;
import tools.jackson.databind.json.JsonMapper;

/**
 * Issue 39: guard's JSON (the rule format, the endpoint, the dashboard) is Jackson 3, the Jackson
 * of Spring Boot 4, so a Boot application with the starter has one Jackson. The example starts as
 * it ships, its rules from {@code application.yml} read through the rule format at start-up, in
 * the context {@link ShopApplicationTest} uses. Jackson 3's annotations keep their 2.x coordinates
 * ({@code com.fasterxml.jackson.core:jackson-annotations}): they are part of Jackson 3, not Jackson
 * 2's databind or core.
 */
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    classes = {ShopApplication.class, ShopApplicationTest.StoppedClock.class})
class Issue39Jackson3Test {

  @Autowired GuardEngine engine;

  @Autowired ApplicationContext context;

  @Test
  void theApplicationWithTheStarter_hasNoJackson2DatabindOrCore() {
    assertThat(engine.ruleSet().rules()).as("rules read through the rule format").isNotEmpty();

    for (String jackson2 : List.of("com.fasterxml.jackson.databind.ObjectMapper",
        "com.fasterxml.jackson.databind.JsonNode", "com.fasterxml.jackson.core.JsonFactory")) {
      assertThatThrownBy(() -> Class.forName(jackson2, false, getClass().getClassLoader()))
          .as(jackson2).isInstanceOf(ClassNotFoundException.class);
    }
    assertThat(versions("com.fasterxml.jackson.core", "jackson-databind")).isEmpty();
    assertThat(versions("com.fasterxml.jackson.core", "jackson-core")).isEmpty();
  }

  @Test
  void guardsJackson_isTheOneBootUses() {
    List<String> databind = versions("tools.jackson.core", "jackson-databind");

    assertThat(databind).as("Jackson 3 jars").singleElement().asString().startsWith("3.");
    assertThat(versions("tools.jackson.core", "jackson-core")).isEqualTo(databind);
    assertThat(context.getBean(JsonMapper.class).version().toString()).isEqualTo(databind.get(0));
  }

  /** The versions of an artifact on the class path, one per jar that holds it. */
  private List<String> versions(String group, String artifact) {
    List<String> versions = new ArrayList<>();
    try {
      for (URL properties : Collections.list(getClass().getClassLoader().getResources(
          "META-INF/maven/" + group + "/" + artifact + "/pom.properties"))) {
        try (InputStream in = properties.openStream()) {
          Properties read = new Properties();
          read.load(in);
          versions.add(read.getProperty("version"));
        }
      }
    } catch (IOException unreadable) {
      throw new AssertionError("the class path could not be read", unreadable);
    }
    return versions;
  }
}
