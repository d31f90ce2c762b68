import { fireEvent, render, screen, within } from '@testing-library/react';
import { DataTable, type DataColumn, type DataTableProps } from '.';

interface Row {
  id: number;
  name: string;
}
const columns: DataColumn<Row>[] = [
  { key: 'id', label: 'ID', render: (r) => `#${r.id}` },
  { key: 'name', label: 'Name', render: (r) => r.name },
];

/** The table while its rows load (`rows` undefined). */
const loadingTable = (props: Pick<DataTableProps<Row>, 'loading' | 'loadingRows'>) => (
  <DataTable ariaLabel="Things" columns={columns} rows={undefined} rowKey={(r) => r.id} empty="Nothing." {...props} />
);

describe('<DataTable>', () => {
  it('captions each cell with its column for the phone cards; a column of no text label gives its cardLabel or none', () => {
    const cols: DataColumn<Row>[] = [
      ...columns,
      { key: 'icon', label: <span>⚑</span>, cardLabel: 'Flag', render: () => 'on' },
      { key: 'bare', label: <span />, render: () => 'x' },
    ];
    render(
      <DataTable
        ariaLabel="Things"
        columns={cols}
        rows={[{ id: 1, name: 'a' }]}
        rowKey={(r) => r.id}
        empty="Nothing."
      />,
    );
    const cells = within(screen.getAllByRole('row')[1]!).getAllByRole('cell');
    expect(cells.map((c) => c.getAttribute('data-label'))).toEqual(['ID', 'Name', 'Flag', null]);
  });

  it('renders the head, one row per item in order, and the footer, in a keyboard-reachable region', () => {
    render(
      <DataTable
        ariaLabel="Things"
        columns={columns}
        rows={[
          { id: 2, name: 'b' },
          { id: 1, name: 'a' },
        ]}
        rowKey={(r) => r.id}
        empty="Nothing."
        footer={<span>page 1</span>}
      />,
    );
    const table = screen.getByRole('table', { name: 'Things' });
    const region = table.parentElement!;
    expect(region.getAttribute('aria-label')).toBe('Things');
    expect(region.getAttribute('tabindex')).toBe('0');
    const rows = within(region)
      .getAllByRole('row')
      .map((r) => r.textContent);
    expect(rows).toEqual(['IDName', '#2b', '#1a']);
    expect(screen.queryByText('Nothing.')).toBeNull();
    expect(screen.getByText('page 1')).toBeTruthy();
  });

  it('shows the empty text across all columns when there are no rows, and nothing while loading', () => {
    const { rerender } = render(
      <DataTable ariaLabel="Things" columns={columns} rows={[]} rowKey={(r) => r.id} empty="Nothing." />,
    );
    const cell = screen.getByText('Nothing.').closest('td');
    expect(cell?.getAttribute('colspan')).toBe('2');
    rerender(loadingTable({}));
    expect(screen.queryByText('Nothing.')).toBeNull();
    expect(screen.getAllByRole('row')).toHaveLength(1);
  });

  it('shows the loading text while rows is undefined, and a placeholder in place of the table', () => {
    const { rerender } = render(loadingTable({ loading: 'Loading things...' }));
    expect(screen.getByText('Loading things...')).toBeTruthy();
    rerender(
      <DataTable
        ariaLabel="Things"
        columns={columns}
        rows={[]}
        rowKey={(r) => r.id}
        empty="Nothing."
        placeholder={<p>Failed</p>}
        footer="f"
      />,
    );
    expect(screen.queryByRole('table')).toBeNull();
    expect(screen.queryByText('f')).toBeNull();
    expect(screen.getByText('Failed')).toBeTruthy();
  });

  it('shows skeleton rows while loading when asked to, hidden from screen readers', () => {
    const { container } = render(loadingTable({ loadingRows: 3 }));
    const body = container.querySelectorAll('tbody tr');
    expect(body).toHaveLength(3);
    body.forEach((row) => expect(row.getAttribute('aria-hidden')).toBe('true'));
    expect(body[0]!.querySelector('td')?.getAttribute('colspan')).toBe('2');
    expect(screen.queryByText('Nothing.')).toBeNull();
  });

  it('makes sortable heads buttons that report their key, marks the sorted one, and passes row props', () => {
    const onSort = jest.fn();
    render(
      <DataTable
        ariaLabel="Things"
        columns={[{ ...columns[0], sortable: true }, columns[1]]}
        rows={[{ id: 1, name: 'a' }]}
        rowKey={(r) => r.id}
        empty="Nothing."
        sort={{ key: 'id', dir: 'desc', onSort }}
        rowProps={(r) => ({ 'data-thing': r.id })}
      />,
    );
    expect(screen.getByRole('columnheader', { name: /ID/ }).getAttribute('aria-sort')).toBe('descending');
    expect(screen.queryByRole('button', { name: 'Name' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /ID/ }));
    expect(onSort).toHaveBeenCalledWith('id');
    expect(document.querySelector('tr[data-thing="1"]')).toBeTruthy();
  });
});
