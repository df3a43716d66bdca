package dev.trainyard.worker.scm;

import java.lang.reflect.Proxy;

/**
 * A source host for the tests of what runs around the adapters (the poller, the effect runner):
 * every call is answered by the test's script, which names the calls it knows and refuses the
 * others.
 */
public final class ScriptedHost {
  private ScriptedHost() {}

  /** What the host answers to {@code method} called with {@code args}. */
  public interface Script {
    Object answer(String method, Object[] args) throws Throwable;
  }

  public static ScmProvider of(Script script) {
    return (ScmProvider)
        Proxy.newProxyInstance(
            ScmProvider.class.getClassLoader(),
            new Class<?>[] {ScmProvider.class},
            (proxy, method, args) -> script.answer(method.getName(), args));
  }
}
