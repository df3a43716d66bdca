package dev.trainyard.worker.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** STYLE.md §1: the engine is a functional core; I/O and frameworks live around it. */
@AnalyzeClasses(
    packages = "dev.trainyard.worker",
    importOptions = ImportOption.DoNotIncludeTests.class)
class EngineIsPureTest {

  @ArchTest
  static final ArchRule engineDependsOnlyOnJavaAndCommon =
      classes()
          .that()
          .resideInAPackage("dev.trainyard.worker.engine..")
          .should()
          .onlyDependOnClassesThat()
          .resideInAnyPackage("java..", "dev.trainyard.common..", "dev.trainyard.worker.engine..");

  @ArchTest
  static final ArchRule engineReadsNoClock =
      noClasses()
          .that()
          .resideInAPackage("dev.trainyard.worker.engine..")
          .should()
          .callMethod(java.time.Instant.class, "now")
          .orShould()
          .callMethod(System.class, "currentTimeMillis");

  @ArchTest
  static final ArchRule onlyAppliersBuildNewState =
      noClasses()
          .that()
          .resideInAPackage("dev.trainyard.worker..")
          .and()
          .doNotHaveSimpleName("EventApplier")
          .and()
          .doNotHaveSimpleName("RunApplier")
          .and()
          .doNotHaveSimpleName("TestRun")
          .and()
          .doNotHaveSimpleName("QueueAggregate")
          .and()
          .doNotHaveSimpleName("Entry")
          // the store takes the entries out of a state and puts the same ones back (ADR 0019)
          .and()
          .doNotHaveSimpleName("StoredQueue")
          .and()
          .doNotHaveSimpleName("QueueSplit")
          .should()
          .callMethodWhere(
              com.tngtech.archunit.base.DescribedPredicate.describe(
                  "a state-changing 'with' method of the engine's state",
                  call ->
                      (call.getTargetOwner()
                                  .isEquivalentTo(dev.trainyard.worker.engine.QueueAggregate.class)
                              || call.getTargetOwner()
                                  .isEquivalentTo(dev.trainyard.worker.engine.Entry.class)
                              || call.getTargetOwner()
                                  .isEquivalentTo(dev.trainyard.worker.engine.TestRun.class))
                          && (call.getName().startsWith("with")
                              || call.getName().equals("inRun")
                              || call.getName().equals("verifiedBy")
                              || call.getName().equals("built")
                              || call.getName().equals("conflicted"))));
}
