package dev.guard.spring.boot;

import java.util.concurrent.ThreadFactory;
import dev.guard.engine.GuardEngine;
import dev.guard.redis.RedisConnection;
import dev.guard.redis.RedisFleet;
import dev.guard.redis.RedisRuleSource;
import dev.guard.redis.RedisTokenService;
import dev.guard.spi.EngineListener;
import dev.guard.spi.SystemStatus;
import dev.guard.spi.TimeSource;
import dev.guard.spi.TokenService;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import dev.guard.spi.RuleSource;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.thread.Threading;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Condition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.core.Ordered;
import org.springframework.core.env.Environment;
import org.springframework.core.task.VirtualThreadTaskExecutor;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Configures one {@link GuardEngine} from the {@code guard.*} properties unless the application
 * defines its own, and installs its rules. The engine takes the application's {@link TimeSource},
 * {@link SystemStatus} and {@link TokenService} beans when there are such (a test's manual clock,
 * say), and every {@link EngineListener} bean.
 */
@AutoConfiguration(afterName =
    "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration")
@ConditionalOnBooleanProperty(name = "guard.enabled", matchIfMissing = true)
@EnableConfigurationProperties(GuardProperties.class)
public class GuardAutoConfiguration {

  /** The name of the Redis rule source's bean. */
  static final String REDIS_RULES = "guardRedisRuleSource";

  /** The name of the fleet's bean (looked up by name: guard-redis is optional). */
  static final String FLEET = "guardRedisFleet";

  /** Creates the configuration; Spring does. */
  public GuardAutoConfiguration() {}

  /**
   * Returns the engine, built from the {@code guard.*} properties.
   *
   * @param properties the {@code guard.*} properties
   * @param clock the application's time source, if it has one
   * @param systemStatus the application's system status, if it has one
   * @param tokenService the application's token service, if it has one
   * @param listeners the application's engine listeners
   * @param environment the application's environment, for {@code spring.threads.virtual.enabled}
   * @return the application's engine
   */
  @Bean(destroyMethod = "close")
  @ConditionalOnMissingBean
  public GuardEngine guardEngine(GuardProperties properties, ObjectProvider<TimeSource> clock,
      ObjectProvider<SystemStatus> systemStatus, ObjectProvider<TokenService> tokenService,
      ObjectProvider<EngineListener> listeners, Environment environment) {
    GuardEngine.Builder builder = GuardEngine.builder();
    ThreadFactory threads = platformThreads(environment);
    if (threads != null) {
      builder.threads(threads);
    }
    clock.ifUnique(builder::clock);
    systemStatus.ifUnique(builder::systemStatus);
    tokenService.ifUnique(builder::tokenService);
    listeners.orderedStream().forEach(builder::listener);
    set("guard.max-resources", properties.maxResources(), builder::maxResources);
    set("guard.max-contexts", properties.maxContexts(), builder::maxContexts);
    set("guard.max-origins-per-resource", properties.maxOriginsPerResource(),
        builder::maxOriginsPerResource);
    set("guard.occupy-timeout", properties.occupyTimeout(), builder::occupyTimeout);
    set("guard.context-statistics", properties.contextStatistics(), builder::contextStatistics);
    set("guard.rule-history", properties.ruleHistory(), builder::ruleHistory);
    set("guard.metrics-history", properties.metricsHistory(), builder::metricsHistory);
    set("guard.metrics-history-budget", properties.metricsHistoryBudget(),
        builder::metricsHistoryBudget);
    GuardProperties.SecondWindow window = properties.secondWindow();
    Integer buckets = window.buckets();
    Duration length = window.length();
    if (buckets != null || length != null) {
      if (buckets == null || length == null) {
        throw InvalidGuardSettingsException.of("guard.second-window",
            "set both buckets and length, was buckets=" + buckets + ", length=" + length);
      }
      set("guard.second-window", length, l -> builder.secondWindow(buckets, l));
    }
    Integer lines = properties.refusalLogLinesPerSecond();
    if (lines != null) {
      set("guard.refusal-log-lines-per-second", lines,
          n -> builder.refusalLog(System.getLogger("dev.guard.refusals"), n));
    }
    return builder.build();
  }

  /**
   * The platform's threads for guard's background work: virtual threads when the application runs
   * on them ({@code spring.threads.virtual.enabled} on Java 21+), else none (guard's default).
   */
  static @Nullable ThreadFactory platformThreads(Environment environment) {
    return Threading.VIRTUAL.isActive(environment)
        ? new VirtualThreadTaskExecutor("guard-").getVirtualThreadFactory() : null;
  }

  /**
   * Returns where the engine's rules come from, attached to the engine.
   *
   * @param engine the engine
   * @param environment the application's environment, for {@code guard.rules}
   * @param properties the {@code guard.*} properties
   * @param beans the bean factory, for the Redis rule source when {@code guard.redis.rules-key}
   *     is set (looked up by name: guard-redis is optional)
   * @return the attached rules
   */
  @Bean
  @ConditionalOnMissingBean
  public GuardRules guardRules(GuardEngine engine, ConfigurableEnvironment environment,
      GuardProperties properties, BeanFactory beans) {
    RuleSource redis = beans.containsBean(REDIS_RULES)
        ? beans.getBean(REDIS_RULES, RuleSource.class) : null;
    if (redis != null && beans instanceof ConfigurableBeanFactory configurable) {
      // the rules stop (and the source with them) before the Redis connection closes
      configurable.registerDependentBean(REDIS_RULES, "guardRules");
    }
    return new GuardRules(engine, environment, properties, redis);
  }

  /**
   * Returns the post-processor that guards the {@link Guarded} methods of beans, at {@code
   * guard.advice-order} among the post-processors of other method annotations (read from the
   * environment: a post-processor is created before configuration properties are bound).
   *
   * @param engine the engine, looked up at the first call
   * @param observers told of each refusal
   * @param environment the environment, for {@code guard.advice-order}
   * @return the post-processor
   */
  @Bean
  static GuardedMethods guardedMethods(ObjectProvider<GuardEngine> engine,
      ObjectProvider<GuardedMethods.RefusalObserver> observers, Environment environment) {
    String order = environment.getProperty("guard.advice-order");
    int adviceOrder;
    try {
      adviceOrder = order == null ? Ordered.LOWEST_PRECEDENCE : Integer.parseInt(order.trim());
    } catch (NumberFormatException notANumber) {
      throw InvalidGuardSettingsException.of("guard.advice-order",
          "must be a whole number, was '" + order + "'");
    }
    return new GuardedMethods(engine, observers, adviceOrder);
  }

  /** Sets an option; a value the builder refuses fails with the property's name. */
  private static <T> void set(String property, @Nullable T value,
      java.util.function.Consumer<T> option) {
    if (value != null) {
      try {
        option.accept(value);
      } catch (IllegalArgumentException refused) {
        throw new InvalidGuardSettingsException(
            java.util.List.of(property + ": " + refused.getMessage()), refused);
      }
    }
  }

  /**
   * Redis as the home of the rules, of the cluster token budget and of the fleet: the Redis of
   * {@code guard.redis.uri}, else the application's own (Spring Boot's connection details).
   */
  @Configuration(proxyBeanMethods = false)
  @ConditionalOnClass(RedisRuleSource.class)
  @Conditional(RedisConfiguration.RedisConfigured.class)
  static class RedisConfiguration {

    /** The type of Boot's Redis connection details, named: spring-boot-data-redis is optional. */
    static final String BOOT_DETAILS =
        "org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails";

    /**
     * The one connection the rule source, the token service and the fleet share: one client and
     * one connection, which the rule source subscribes on too (RESP3; see RedisConnection). To
     * {@code guard.redis.uri} when it is set, else to the Redis the application configured for
     * Spring Boot.
     */
    @Bean(destroyMethod = "close")
    @Lazy // made for the first of them that is configured
    RedisConnection guardRedisConnection(GuardProperties properties, BeanFactory beans,
        Environment environment) {
      GuardProperties.Redis redis = properties.redis();
      if (redis.uri() == null || redis.uri().isBlank()) {
        // no uri: by RedisConfigured, Boot's details exist (and so does BootRedis's class path)
        return BootRedis.connection(beans.getBean(
            org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails.class),
            environment.getProperty("spring.data.redis.url"), platformThreads(environment));
      }
      RedisConnection.Builder builder;
      try {
        builder = RedisConnection.builder(redis.uri());
      } catch (IllegalArgumentException invalid) {
        throw new InvalidGuardSettingsException(
            java.util.List.of("guard.redis.uri: " + invalid.getMessage()), invalid);
      }
      if (redis.cluster()) {
        builder.cluster();
      }
      ThreadFactory threads = platformThreads(environment);
      if (threads != null) {
        builder.threads(threads);
      }
      return builder.build();
    }

    @Bean(name = REDIS_RULES, destroyMethod = "") // closed by GuardRules, which attached it
    @ConditionalOnProperty("guard.redis.rules-key")
    RedisRuleSource guardRedisRuleSource(GuardProperties properties, RedisConnection connection) {
      GuardProperties.Redis redis = properties.redis();
      RedisRuleSource.Builder builder = RedisRuleSource.builder(connection,
          required(redis.rulesKey(), "guard.redis.rules-key"));
      set("guard.redis.rules-poll-interval", redis.rulesPollInterval(), builder::pollInterval);
      return builder.build();
    }

    @Bean(destroyMethod = "close")
    @ConditionalOnProperty("guard.redis.token-namespace")
    @ConditionalOnMissingBean(TokenService.class)
    RedisTokenService guardRedisTokenService(GuardProperties properties,
        RedisConnection connection) {
      GuardProperties.Redis redis = properties.redis();
      return RedisTokenService.builder(connection,
          required(redis.tokenNamespace(), "guard.redis.token-namespace")).build();
    }

    @Bean(name = FLEET, destroyMethod = "close")
    @Conditional(InFleet.class)
    RedisFleet guardRedisFleet(GuardEngine engine, GuardProperties properties,
        Environment environment, RedisConnection connection) {
      GuardProperties.Redis redis = properties.redis();
      GuardProperties.Fleet fleet = redis.fleet();
      RedisFleet.Builder builder = RedisFleet.builder(engine, connection,
          required(fleet.namespaceOr(redis.tokenNamespace()), "guard.redis.fleet.namespace"));
      String name = fleet.name() != null && !fleet.name().isBlank() ? fleet.name()
          : environment.getProperty("spring.application.name");
      set("guard.redis.fleet.name", name == null || name.isBlank() ? null : name, builder::name);
      set("guard.redis.fleet.heartbeat", fleet.heartbeat(), builder::heartbeat);
      return builder.build().start(); // Redis away: the heartbeat retries, the app starts
    }

    /** guard.redis.uri is set, or the application configured Redis for Spring Boot. */
    static final class RedisConfigured extends AnyNestedCondition {
      RedisConfigured() {
        super(ConfigurationPhase.REGISTER_BEAN);
      }

      @ConditionalOnProperty("guard.redis.uri")
      static final class GuardsOwn {}

      @ConditionalOnBean(type = BOOT_DETAILS)
      static final class BootsDetails {}
    }

    /** A fleet is joined unless turned off, once it has a namespace (its own or the tokens'). */
    static final class InFleet implements Condition {
      @Override
      public boolean matches(ConditionContext context, AnnotatedTypeMetadata metadata) {
        Environment environment = context.getEnvironment();
        if (!environment.getProperty("guard.redis.fleet.enabled", Boolean.class, true)) {
          return false;
        }
        String namespace = environment.getProperty("guard.redis.fleet.namespace",
            environment.getProperty("guard.redis.token-namespace", ""));
        return !namespace.isBlank();
      }
    }

    private static String required(@Nullable String value, String property) {
      if (value == null || value.isBlank()) {
        throw InvalidGuardSettingsException.of(property, "must not be blank, was '" + value + "'");
      }
      return value;
    }
  }
}
