/** Every item of an SDK iterator, page after page (lists of projects and datasets are short). */
export async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}
