package dev.guard.examples.spring;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A small shop whose HTTP endpoints guard protects with nothing but the starter and the rules in
 * {@code application.yml}: each request enters the resource named after its handler's pattern
 * ({@code GET /orders/{id}}), and the responses carry the rate-limit fields.
 *
 * <pre>{@code
 * mvn -q -B -pl guard-spring-boot-example -am compile exec:java
 * for i in 1 2 3 4 5 6; do curl -si localhost:8080/orders/$i | grep -E '^HTTP|^RateLimit|^Retry'; done
 * }</pre>
 */
@SpringBootApplication
public class ShopApplication {

  /**
   * Starts the shop on port 8080 ({@code --server.port=0} for a free one).
   *
   * @param args Spring Boot's arguments
   */
  public static void main(String[] args) {
    SpringApplication.run(ShopApplication.class, args);
  }

  /** The orders: read one, place one. */
  @RestController
  static class Orders {

    private final Map<Long, String> orders = new ConcurrentHashMap<>();
    private final AtomicLong ids = new AtomicLong();

    @GetMapping("/orders/{id}")
    String order(@PathVariable long id) {
      String item = orders.get(id);
      if (item == null) {
        return "{\"id\":" + id + ",\"item\":\"sample\"}";
      }
      return "{\"id\":" + id + ",\"item\":\"" + item + "\"}";
    }

    @PostMapping("/orders")
    @ResponseStatus(HttpStatus.CREATED)
    String place(@RequestBody String item) {
      if (item.isBlank()) {
        throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "an order needs an item");
      }
      long id = ids.incrementAndGet();
      orders.put(id, item.strip());
      return "{\"id\":" + id + "}";
    }

    @GetMapping("/ping")
    String ping() {
      return "pong";
    }
  }
}
