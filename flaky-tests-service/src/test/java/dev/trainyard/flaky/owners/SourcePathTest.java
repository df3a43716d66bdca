package dev.trainyard.flaky.owners;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The path each producer's identity fields lead to, in a repository named {@code shop}. */
class SourcePathTest {

  @ParameterizedTest(name = "{4}")
  @CsvSource(
      nullValues = "-",
      value = {
        "tests/test_api.py, tests.test_api, pytest, tests/test_api.py, pytest xunit1 file",
        "./src/sum.test.ts, -, -, src/sum.test.ts, a ./ dropped",
        "src\\sum.test.ts, -, -, src/sum.test.ts, Windows separators",
        "/home/runner/work/shop/shop/packages/web/src/a.test.ts, -, -,"
            + " packages/web/src/a.test.ts, an absolute CI workspace path",
        "-, sums adds, packages/web/src/sum.test.ts, packages/web/src/sum.test.ts,"
            + " jest-junit suite named by its file",
        "-, sums adds, sums, -, jest-junit default: a describe title names no file",
        "-, tests.test_api, pytest, tests/test_api.py, pytest xunit2 module",
        "-, tests.test_api.TestCart, pytest, tests/test_api.py, pytest xunit2 class in a module",
        "-, pkg.test_cart.TestCart, suite, pkg/test_cart.py, pytest under another suite name",
        "-, com.acme.cart.CartTest, com.acme.cart.CartTest,"
            + " src/test/java/com/acme/cart/CartTest.java, Surefire class",
        "-, com.acme.cart.CartTest$Nested, -, src/test/java/com/acme/cart/CartTest.java,"
            + " Surefire nested class",
        "-, github.com/acme/shop/cart/checkout, -, cart/checkout/_test.go,"
            + " gotestsum package of this repository",
        "-, github.com/acme/shop, -, _test.go, gotestsum package at the module root",
        "-, example.org/team/lib/sum, -, sum/_test.go, gotestsum module of another name",
      })
  void eachProducerLeadsToAPath(
      String file, String classname, String parent, String expected, String producer) {
    assertThat(SourcePath.of(file, classname, parent, "shop")).as(producer).isEqualTo(expected);
  }
}
