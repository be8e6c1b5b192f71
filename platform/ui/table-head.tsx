import { RichText } from "./rich-text";

/** A table's header row: one column header per label (rich text: ruby, math…). */
export function TableHead({ labels }: { labels: string[] }) {
  return (
    <thead>
      <tr>
        {labels.map((label) => (
          <th key={label} scope="col">
            <RichText text={label} />
          </th>
        ))}
      </tr>
    </thead>
  );
}
