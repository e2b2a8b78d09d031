import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { Ajv } from "ajv";
import { Deployment, StatefulSet } from "kubernetes-models/apps/v1";
import { HorizontalPodAutoscaler } from "kubernetes-models/autoscaling/v2";
import { Job } from "kubernetes-models/batch/v1";
import { PodDisruptionBudget } from "kubernetes-models/policy/v1";
import { ConfigMap, Namespace, Service } from "kubernetes-models/v1";
import { describe, expect, it } from "vitest";
import { parse, parseAllDocuments } from "yaml";
import type { z } from "zod";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const read = (path: string) => readFileSync(join(root, path), "utf8");

/** Every deployable service: a folder of services/ with a process entry (the embedded one is not deployed). */
const serviceNames = readdirSync(join(root, "services")).filter(
  (name) => name !== "embedded" && existsSync(join(root, "services", name, "src/main.ts")),
);
/** Each service's configuration schema: the variables it reads. */
const configs: Record<string, z.ZodObject> = Object.fromEntries(
  await Promise.all(
    serviceNames.map(async (name) => {
      const module = (await import(`../services/${name}/src/config.ts`)) as { configSchema: z.ZodObject };
      return [name, module.configSchema] as const;
    }),
  ),
);
const schemaOf = (name: string): z.ZodObject => {
  const schema = configs[name];
  if (!schema) throw new Error(`no configuration schema for ${name}`);
  return schema;
};
/** Variables read by the runtime or the OpenTelemetry SDK rather than by a service's own config. */
const runtimeVariable = /^(NODE_OPTIONS|OTEL_[A-Z_]+)$/;

/** A parsed YAML document: plain JSON, which the schema checks below give its shape. */
// biome-ignore lint/suspicious/noExplicitAny: the manifests' shapes are what the schema checks prove
type Manifest = any;

/** The Kubernetes kinds the manifests may use, each with its schema (kubernetes-models, from the API's OpenAPI). */
const models: Record<string, new (data: never) => { validate(): void }> = {
  "v1/Namespace": Namespace,
  "v1/ConfigMap": ConfigMap,
  "v1/Service": Service,
  "apps/v1/Deployment": Deployment,
  "apps/v1/StatefulSet": StatefulSet,
  "batch/v1/Job": Job,
  "autoscaling/v2/HorizontalPodAutoscaler": HorizontalPodAutoscaler,
  "policy/v1/PodDisruptionBudget": PodDisruptionBudget,
};

function loadManifests(): { file: string; doc: Manifest }[] {
  const dir = join(root, "infra/k8s");
  return readdirSync(dir)
    .filter((file) => file.endsWith(".yaml") && file !== "kustomization.yaml")
    .flatMap((file) =>
      parseAllDocuments(readFileSync(join(dir, file), "utf8")).map((doc) => {
        expect(doc.errors, `${file}: YAML errors`).toEqual([]);
        return { file, doc: doc.toJS() as Manifest };
      }),
    );
}

const manifests = loadManifests();
const ofKind = (kind: string) => manifests.map((m) => m.doc).filter((doc) => doc.kind === kind);
const deployment = (name: string) => ofKind("Deployment").find((d) => d.metadata.name === name);

describe("docker-compose.yml", () => {
  const compose = parse(read("docker-compose.yml"), { merge: true });

  it("is valid against the Compose Specification's JSON schema", () => {
    // The schema as shipped by dclint, a Compose linter on npm, which tracks compose-spec upstream.
    const require = createRequire(import.meta.url);
    const schemaFile = join(dirname(require.resolve("dclint/package.json")), "schemas/compose.schema.json");
    // The schema names draft-07 by URL; Ajv speaks draft-07 without fetching the meta-schema.
    const ajv = new Ajv({ allErrors: true, strict: false, validateSchema: false });
    const validate = ajv.compile(JSON.parse(readFileSync(schemaFile, "utf8")));
    validate(compose);
    expect(validate.errors ?? []).toEqual([]);
  });

  it("builds every service from infra/Dockerfile and can scale the writers and readers", () => {
    for (const name of serviceNames) {
      const service = compose.services[name];
      expect(service, name).toBeDefined();
      expect(service.build).toEqual({
        context: ".",
        dockerfile: "infra/Dockerfile",
        args: { SERVICE: name },
      });
      expect(existsSync(join(root, "services", name, "src/main.ts"))).toBe(true);
    }
    // --scale needs containers without fixed names or host ports.
    for (const name of serviceNames.filter((n) => n !== "gateway")) {
      expect(compose.services[name].container_name, name).toBeUndefined();
      expect(compose.services[name].ports, name).toBeUndefined();
    }
    expect(compose.services.migrate.command).toEqual(["node", "shared/db/dist/migrate.js"]);
  });

  it("has the shapes past one machine behind the cluster profile: three routed NATS servers and a standby", () => {
    const cluster = ["nats-1", "nats-2", "nats-3"];
    for (const name of [...cluster, "postgres-standby"])
      expect(compose.services[name]?.profiles, name).toEqual(["cluster"]);
    for (const name of cluster) {
      const args: string[] = compose.services[name].command;
      const routes = args[args.indexOf("--routes") + 1]?.split(",");
      expect(routes?.sort(), name).toEqual(cluster.filter((n) => n !== name).map((n) => `nats://${n}:6222`));
      expect(args[args.indexOf("-n") + 1]).toBe(name);
    }
    expect(compose.services["postgres-standby"].entrypoint.join(" ")).toContain("pg_basebackup -h postgres");
    // Compose's own interpolation: the operator's variables, else one server and no standby.
    const variable = (text: string) => `\${${text}}`;
    expect(compose.services.reader.environment.DATABASE_READ_URL).toBe(variable("DATABASE_READ_URL:-"));
    expect(compose.services.auth.environment.NATS_URL).toBe(variable("NATS_URL:-nats://nats:4222"));
  });
});

describe("infra/Dockerfile", () => {
  const dockerfile = read("infra/Dockerfile");
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it("builds in stages and runs the last one as a non-root user from a pinned base", () => {
    expect(stages.length).toBeGreaterThanOrEqual(2);
    const runtime = stages.at(-1) ?? "";
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).not.toMatch(/^COPY (?!--from=)/m);
    expect(dockerfile).not.toMatch(/^ADD /m);
    expect(dockerfile).not.toMatch(/:latest\b/);
    expect(dockerfile).toMatch(/^ARG NODE_VERSION=\d+\.\d+$/m);
  });

  it("starts each service with the collector's settings that every other launcher gives it", () => {
    const flags = "--single-threaded-gc --max-old-space-size=192";
    const start = (service: string) =>
      (JSON.parse(read(`services/${service}/package.json`)) as { scripts: { start: string } }).scripts.start;
    for (const service of ["auth", "dataset-writer", "reader", "experiments"]) {
      expect(start(service)).toBe(`node ${flags} dist/main.js`);
    }
    // The gateway holds hundreds of requests for tens of milliseconds each, trace-ingest a few
    // megabytes of each export it stores: a young generation large enough that they die in it rather
    // than being promoted (docs/decisions/0010).
    for (const service of ["gateway", "trace-ingest"]) {
      expect(start(service)).toBe(`node ${flags} --max-semi-space-size=32 dist/main.js`);
    }
    // The one process of the embedded platform holds every service: no heap limit of one service.
    expect(start("embedded")).toBe("node --single-threaded-gc dist/main.js");
    // The image runs the flags of the service's own start script, taken from it at build time.
    const cmd = /^CMD (.+)$/m.exec(dockerfile)?.[1] ?? "";
    expect(JSON.parse(cmd)).toEqual([
      "sh",
      "-c",
      `exec node $(cat node-flags) services/\${SERVICE}/dist/main.js`,
    ]);
    const writeFlags = /^RUN node -e '([^']+)' > node-flags$/m.exec(dockerfile.replace(/\\\n\s*/g, ""))?.[1];
    expect(writeFlags).toBeDefined();
    for (const service of ["auth", "gateway"]) {
      const printed = execFileSync(process.execPath, ["-e", writeFlags ?? ""], {
        cwd: root,
        env: { ...process.env, SERVICE: service },
        encoding: "utf8",
      });
      expect(`node ${printed} dist/main.js`).toBe(start(service));
    }
  });

  it("keeps sources, git history and local data out of the build context", () => {
    const ignored = read(".dockerignore").split("\n");
    for (const entry of ["**/node_modules", "**/dist", ".git", ".svc-data"]) expect(ignored).toContain(entry);
  });
});

describe("Kubernetes manifests (infra/k8s)", () => {
  it("are all valid against the Kubernetes API schemas of their kind", () => {
    expect(manifests.length).toBeGreaterThan(10);
    for (const { file, doc } of manifests) {
      const Model = models[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${file}: unexpected ${doc.apiVersion} ${doc.kind}`).toBeDefined();
      if (!Model) continue;
      expect(
        () => new Model(doc as never).validate(),
        `${file}: ${doc.kind} ${doc.metadata.name}`,
      ).not.toThrow();
      if (doc.kind !== "Namespace")
        expect(doc.metadata.namespace, `${file}: ${doc.metadata.name}`).toBe("svc");
    }
  });

  it("are all listed in the kustomization, which lists nothing else", () => {
    const kustomization = parse(read("infra/k8s/kustomization.yaml"));
    const files = new Set(manifests.map((m) => m.file));
    expect([...kustomization.resources].sort()).toEqual([...files].sort());
  });

  it("deploy every service, non-root, with resources, probes and a drain that fits the grace period", () => {
    for (const name of [...serviceNames, "otel-collector"]) {
      const found = deployment(name);
      expect(found, name).toBeDefined();
      const pod = found?.spec.template.spec;
      expect(found?.spec.selector.matchLabels).toEqual({ "app.kubernetes.io/name": name });
      expect(found?.spec.template.metadata.labels).toMatchObject({ "app.kubernetes.io/name": name });
      expect(pod.securityContext).toMatchObject({ runAsNonRoot: true });
      for (const container of pod.containers) {
        expect(container.resources.requests, name).toMatchObject({
          cpu: expect.any(String),
          memory: expect.any(String),
        });
        expect(container.resources.limits, name).toMatchObject({ memory: expect.any(String) });
        expect(container.securityContext).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
        });
        expect(container.livenessProbe, name).toBeDefined();
        expect(container.readinessProbe, name).toBeDefined();
      }
      if (name === "otel-collector") continue;
      const container = pod.containers[0];
      expect(container.image).toBe(`svc/${name}:0.1.0`);
      const port = name === "gateway" ? "http" : "health";
      expect(container.livenessProbe.httpGet).toEqual({ path: "/healthz", port });
      expect(container.readinessProbe.httpGet).toEqual({ path: "/readyz", port });
      expect(container.ports).toContainEqual(
        name === "gateway" ? { name: "http", containerPort: 8080 } : { name: "health", containerPort: 8081 },
      );
      // The process gives up (exit 1) before the kubelet's SIGKILL; the drain delay is part of that time.
      const shutdownTimeout = Number(configValue("SVC_SHUTDOWN_TIMEOUT_MS"));
      expect(pod.terminationGracePeriodSeconds * 1000).toBeGreaterThan(shutdownTimeout);
      expect(Number(envValue(container, "SVC_DRAIN_DELAY_MS") ?? 0)).toBeLessThan(shutdownTimeout / 2);
    }
  });

  it("set only variables that the service's configuration reads", () => {
    const known = new Set(serviceNames.flatMap((name) => Object.keys(schemaOf(name).shape)));
    for (const key of Object.keys(configMap("svc-config").data)) {
      expect(known.has(key) || runtimeVariable.test(key), `svc-config: ${key}`).toBe(true);
    }
    expect(configValue("SVC_HEALTH_PORT")).toBe("8081");
    for (const name of serviceNames) {
      const container = deployment(name)?.spec.template.spec.containers[0];
      for (const { name: variable } of container.env) {
        expect(
          variable in schemaOf(name).shape || runtimeVariable.test(variable),
          `${name}: ${variable}`,
        ).toBe(true);
      }
      expect(container.envFrom).toEqual([{ configMapRef: { name: "svc-config" } }]);
    }
  });

  it("scale the gateway, writers and readers with CPU-based autoscalers, and leave them their replica count", () => {
    const hpas = ofKind("HorizontalPodAutoscaler");
    expect(hpas.map((h) => h.spec.scaleTargetRef.name).sort()).toEqual([
      "dataset-writer",
      "gateway",
      "reader",
    ]);
    for (const hpa of hpas) {
      const target = deployment(hpa.spec.scaleTargetRef.name);
      expect(hpa.spec.scaleTargetRef).toEqual({
        apiVersion: "apps/v1",
        kind: "Deployment",
        name: hpa.metadata.name,
      });
      expect(target?.spec.replicas, hpa.metadata.name).toBeUndefined();
      expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
      expect(hpa.spec.maxReplicas).toBeGreaterThan(hpa.spec.minReplicas);
    }
  });

  it("route each Service to pods of a Deployment or StatefulSet, on a port the pods name", () => {
    for (const service of ofKind("Service")) {
      const target = [...ofKind("Deployment"), ...ofKind("StatefulSet")].find(
        (d) =>
          d.spec.template.metadata.labels["app.kubernetes.io/name"] ===
          service.spec.selector["app.kubernetes.io/name"],
      );
      expect(target, service.metadata.name).toBeDefined();
      const portNames = target?.spec.template.spec.containers.flatMap((c: Manifest) =>
        c.ports.map((p: Manifest) => p.name),
      );
      for (const port of service.spec.ports) expect(portNames).toContain(port.targetPort);
    }
  });

  it("run NATS as a StatefulSet of three, every server in NATS_URL and the routes, with three copies of JetStream's buckets", () => {
    const [nats] = ofKind("StatefulSet");
    expect(nats?.metadata.name).toBe("nats");
    expect(nats?.spec.replicas).toBe(3);
    const pods = [0, 1, 2].map((i) => `nats-${i}.nats.svc.svc.cluster.local`);
    expect(configValue("NATS_URL")?.split(",")).toEqual(pods.map((pod) => `nats://${pod}:4222`));
    expect(configValue("SVC_JETSTREAM_REPLICAS")).toBe("3");
    const conf = configMap("nats-config").data["nats.conf"] as string;
    for (const pod of pods) expect(conf).toContain(`nats://${pod}:6222`);
    expect(conf).toMatch(/jetstream \{/);
    const budget = ofKind("PodDisruptionBudget").find((p) => p.metadata.name === "nats");
    expect(budget?.spec.maxUnavailable).toBe(1);
    // The reader reads from the standby when the Secret names one.
    const reader = deployment("reader")?.spec.template.spec.containers[0];
    expect(reader.env).toContainEqual({
      name: "DATABASE_READ_URL",
      valueFrom: { secretKeyRef: { name: "svc-secrets", key: "DATABASE_READ_URL", optional: true } },
    });
  });

  it("migrate with a Job running the migration bundle", () => {
    const [job] = ofKind("Job");
    const container = job?.spec.template.spec.containers[0];
    expect(container.command).toEqual(["node", "shared/db/dist/migrate.js"]);
    expect(container.env).toContainEqual({
      name: "DATABASE_URL",
      valueFrom: { secretKeyRef: { name: "svc-secrets", key: "DATABASE_URL" } },
    });
    expect(job?.spec.template.spec.restartPolicy).toBe("OnFailure");
  });
});

describe("infra/otel-collector.yaml", () => {
  const text = read("infra/otel-collector.yaml");
  const config = parse(text);

  it("wires every pipeline to receivers, processors and exporters it defines, memory limiter first", () => {
    const pipelines = Object.entries(config.service.pipelines) as [string, Record<string, string[]>][];
    expect(pipelines.map(([name]) => name).sort()).toEqual(["logs", "metrics", "traces"]);
    for (const [name, pipeline] of pipelines) {
      for (const part of ["receivers", "processors", "exporters"] as const) {
        for (const component of pipeline[part] ?? [])
          expect(config[part], `${name}: ${component}`).toHaveProperty([component]);
      }
      expect(pipeline.processors?.[0]).toBe("memory_limiter");
      expect(pipeline.processors?.at(-1)).toBe("batch");
    }
    expect(config.receivers.otlp.protocols.http.endpoint).toBe("0.0.0.0:4318");
    for (const extension of config.service.extensions) expect(config.extensions).toHaveProperty([extension]);
  });

  it("is what the collector in Kubernetes runs, word for word", () => {
    expect(configMap("otel-collector").data["config.yaml"]).toBe(text);
  });

  it("is where the services send their telemetry", () => {
    const service = ofKind("Service").find((s) => s.metadata.name === "otel-collector");
    expect(service?.spec.ports).toContainEqual({ name: "otlp-http", port: 4318, targetPort: "otlp-http" });
    expect(configValue("OTEL_EXPORTER_OTLP_ENDPOINT")).toBe(
      "http://otel-collector.svc.svc.cluster.local:4318",
    );
  });
});

function configMap(name: string): Manifest {
  const found = ofKind("ConfigMap").find((c) => c.metadata.name === name);
  if (!found) throw new Error(`no ConfigMap ${name}`);
  return found;
}

function configValue(key: string): string | undefined {
  return configMap("svc-config").data[key];
}

function envValue(container: Manifest, name: string): string | undefined {
  return container.env.find((e: Manifest) => e.name === name)?.value;
}
