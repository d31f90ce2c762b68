import { render, screen, within } from '@testing-library/react';
import { DataTable, type DataColumn } from '.';

interface Row {
  id: number;
  name: string;
}
const columns: DataColumn<Row>[] = [
  { key: 'id', label: 'ID', render: (r) => `#${r.id}` },
  { key: 'name', label: 'Name', render: (r) => r.name },
];

describe('<DataTable>', () => {
  it('renders the head, one row per item in order, and the footer, in a keyboard-reachable region', () => {
    render(<DataTable ariaLabel="Things" columns={columns} rows={[{ id: 2, name: 'b' }, { id: 1, name: 'a' }]} rowKey={(r) => r.id} empty="Nothing." footer={<span>page 1</span>} />);
    const region = screen.getByLabelText('Things');
    expect(region.getAttribute('tabindex')).toBe('0');
    const rows = within(region).getAllByRole('row').map((r) => r.textContent);
    expect(rows).toEqual(['IDName', '#2b', '#1a']);
    expect(screen.queryByText('Nothing.')).toBeNull();
    expect(screen.getByText('page 1')).toBeTruthy();
  });

  it('shows the empty text across all columns when there are no rows, and nothing while loading', () => {
    const { rerender } = render(<DataTable ariaLabel="Things" columns={columns} rows={[]} rowKey={(r) => r.id} empty="Nothing." />);
    const cell = screen.getByText('Nothing.').closest('td');
    expect(cell?.getAttribute('colspan')).toBe('2');
    rerender(<DataTable ariaLabel="Things" columns={columns} rows={undefined} rowKey={(r) => r.id} empty="Nothing." />);
    expect(screen.queryByText('Nothing.')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });
});
