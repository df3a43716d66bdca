package dev.trainyard.worker.scm;

import dev.trainyard.common.telemetry.ScmCalls;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.Set;

/**
 * An adapter whose calls count in {@code trainyard.scm.calls} under its name, {@code ok} or {@code
 * error} (a refusal, a conflict reported as a result, is {@code ok}: the host answered). The
 * questions answered from memory ({@code serves}, {@code emptyMeansClosed}), the read-ahead of what
 * the store holds ({@code readAhead}) and a notify's note ({@code hostChanged}) ask no host and are
 * not counted.
 */
public final class MeteredScm {
  private static final Set<String> LOCAL =
      Set.of("serves", "emptyMeansClosed", "readAhead", "hostChanged");

  private MeteredScm() {}

  public static ScmProvider of(ScmProvider adapter, String name, ScmCalls calls) {
    return (ScmProvider)
        Proxy.newProxyInstance(
            ScmProvider.class.getClassLoader(),
            new Class<?>[] {ScmProvider.class},
            (proxy, method, args) -> {
              if (method.getDeclaringClass() == Object.class || LOCAL.contains(method.getName())) {
                return invoke(method, adapter, args);
              }
              long start = System.nanoTime();
              String status = "error";
              try {
                Object result = invoke(method, adapter, args);
                status = "ok";
                return result;
              } finally {
                calls.record(name, status, System.nanoTime() - start);
              }
            });
  }

  private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
