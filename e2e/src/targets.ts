// The shared harness (@svc/testing/platform) under the name the suites import it by.
export {
  createOrganization,
  startDistributed,
  startEmbedded,
  type Target,
  targets,
} from "@svc/testing/platform";
