package dev.trainyard.webhooks.outbound;

import io.netty.resolver.AbstractAddressResolver;
import io.netty.resolver.AddressResolver;
import io.netty.resolver.AddressResolverGroup;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Promise;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.function.Function;

/**
 * The HTTP client's name resolution, replaced by {@link CheckedLookups}: a connection goes only to
 * an address the guard checked, and a refused one fails it before it is made. The address keeps the
 * URL's host name, so the {@code Host} header and TLS SNI stay the name while nothing looks it up
 * again. Addresses written out in a URL never come here; the guard checked them already.
 */
final class GuardedResolverGroup extends AddressResolverGroup<InetSocketAddress> {
  private final CheckedLookups lookups;

  GuardedResolverGroup(CheckedLookups lookups) {
    this.lookups = lookups;
  }

  @Override
  protected AddressResolver<InetSocketAddress> newResolver(EventExecutor executor) {
    return new Resolver(executor, lookups);
  }

  private static final class Resolver extends AbstractAddressResolver<InetSocketAddress> {
    private final CheckedLookups lookups;

    Resolver(EventExecutor executor, CheckedLookups lookups) {
      super(executor, InetSocketAddress.class);
      this.lookups = lookups;
    }

    @Override
    protected boolean doIsResolved(InetSocketAddress address) {
      return !address.isUnresolved();
    }

    @Override
    protected void doResolve(InetSocketAddress unresolved, Promise<InetSocketAddress> promise) {
      answer(unresolved, promise, all -> all.get(0));
    }

    @Override
    protected void doResolveAll(
        InetSocketAddress unresolved, Promise<List<InetSocketAddress>> promise) {
      answer(unresolved, promise, all -> all);
    }

    /** Completes {@code promise} with the checked addresses, or the refusal, once looked up. */
    private <T> void answer(
        InetSocketAddress unresolved,
        Promise<T> promise,
        Function<List<InetSocketAddress>, T> pick) {
      lookups
          .addresses(unresolved.getHostString())
          .whenComplete(
              (all, error) -> {
                if (error != null) {
                  promise.tryFailure(error);
                } else {
                  promise.trySuccess(
                      pick.apply(all.stream().map(a -> checked(unresolved, a)).toList()));
                }
              });
    }

    /** The checked address under the URL's name: resolved, so nothing looks the name up again. */
    private static InetSocketAddress checked(InetSocketAddress unresolved, InetAddress address) {
      try {
        InetAddress named =
            InetAddress.getByAddress(unresolved.getHostString(), address.getAddress());
        return new InetSocketAddress(named, unresolved.getPort());
      } catch (UnknownHostException e) {
        throw new IllegalStateException("an address of 4 or 16 bytes is always valid", e);
      }
    }
  }
}
