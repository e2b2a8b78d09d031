export const cpuTypes: { x86_64: number; arm64: number };
export interface MachO {
  header: { cpuType: number; fileType: number; commands: number; commandsSize: number };
  segments: { at: number; name: string; vmSize: bigint; fileOffset: number; fileSize: number }[];
  signature: { at: number; dataOffset: number; dataSize: number } | undefined;
  commandsEnd: number;
}
export function readMachO(file: Buffer): MachO;
export function signAdHoc(file: Buffer, identifier: string): Buffer;
export function verifySignature(file: Buffer, options?: { adHoc?: boolean }): string;
