export interface Target {
  name: string;
  os: "linux" | "macos" | "windows";
  bun: string;
  bunTarget: string;
  addon: string;
  host: string;
}
export const bunVersion: string;
export const releaseCache: string;
export function cachedPackage(name: string, version: string): string;
export function bunBinaryOf(target: Target): string;
export const targets: Target[];
export function executableName(target: Target): string;
export function archiveName(target: Target): string;
export function packArchive(target: Target, exe: string, out: string): string;
