export function machine(): string;
export function writeSection(name: string, text: string): void;
