export { type ExperimentsDeps, registerExperiments } from "./service";
