export interface Target {
  name: string;
  os: "linux" | "macos" | "windows";
  node: string;
  addon: string;
  host: string;
}
export const nodeVersion: string;
export const targets: Target[];
export function executableName(target: Target): string;
export function archiveName(target: Target): string;
export function packArchive(target: Target, exe: string, out: string): string;
