/**
 * Outbound network policy: which URLs trainyard may call on a tenant's behalf (webhook endpoints
 * now, git remotes later) and which addresses a connection may go to. {@link
 * dev.trainyard.common.net.OutboundGuard} reads the host itself (numeric IPv4 only as four decimal
 * numbers; other spellings such as {@code 2852039166}, {@code 0x7f.1} or {@code 127.1} are
 * refused), refuses every address of the IANA special-purpose registries (IPv4-mapped and NAT64
 * addresses by the IPv4 address they carry; the whole of 6to4 {@code 2002::/16}, Teredo {@code
 * 2001::/32} and IPv4-compatible {@code ::/96}, whose real destination depends on a relay), and
 * hands the checked addresses to the caller so the connection goes where the check looked. Plain
 * Java: the dispatcher plugs it into its HTTP client's name resolution.
 */
package dev.trainyard.common.net;
