import { useState } from 'react';
import { act, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import { Pagination, pagesAround, rangeText, slidingPages, usePagination, EMAIL_PAGE_SIZES } from '.';

describe('page windows', () => {
  it('email side: every page within two of the current one', () => {
    expect(pagesAround(1, 10)).toEqual([1, 2, 3]);
    expect(pagesAround(5, 10)).toEqual([3, 4, 5, 6, 7]);
    expect(pagesAround(10, 10)).toEqual([8, 9, 10]);
    expect(pagesAround(1, 1)).toEqual([1]);
  });

  it('SMS side: at most five buttons, sliding and pinned at the ends', () => {
    expect(slidingPages(1, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(slidingPages(2, 10)).toEqual([1, 2, 3, 4, 5]);
    expect(slidingPages(6, 10)).toEqual([4, 5, 6, 7, 8]);
    expect(slidingPages(10, 10)).toEqual([6, 7, 8, 9, 10]);
    expect(slidingPages(2, 3)).toEqual([1, 2, 3]);
  });

  it("'Showing x to y of z results'", () => {
    expect(rangeText(1, 25, 60)).toBe('Showing 1 to 25 of 60 results');
    expect(rangeText(3, 25, 60)).toBe('Showing 51 to 60 of 60 results');
    expect(rangeText(1, 25, 0)).toBe('Showing 0 to 0 of 0 results');
  });
});

function Harness({ total, variant }: { total: number; variant?: 'around' | 'sliding' }) {
  const items = Array.from({ length: total }, (_, i) => i + 1);
  const { pageItems, paginationProps } = usePagination(items, { defaultPageSize: 10 });
  return (
    <>
      <output aria-label="items">{pageItems.join(',')}</output>
      <Pagination {...paginationProps} pageSizeOptions={EMAIL_PAGE_SIZES} variant={variant} />
    </>
  );
}

describe('<Pagination>', () => {
  it('shows previous/next, the page window and the range text, and moves pages', () => {
    render(<Harness total={95} />);
    const nav = screen.getByRole('navigation', { name: 'Pagination' });
    expect(within(nav).getByText('Showing 1 to 10 of 95 results')).toBeTruthy();
    expect(
      within(nav)
        .getAllByRole('button', { name: /^Page / })
        .map((b) => b.textContent),
    ).toEqual(['1', '2', '3']);
    expect((screen.getByRole('button', { name: 'Previous page' }) as HTMLButtonElement).disabled).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Page 3' }));
    expect(screen.getByText('Showing 21 to 30 of 95 results')).toBeTruthy();
    expect(screen.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '1',
      '2',
      '3',
      '4',
      '5',
    ]);
    expect(screen.getByRole('button', { name: 'Page 3' }).getAttribute('aria-current')).toBe('page');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(screen.getByLabelText('items').textContent).toBe('31,32,33,34,35,36,37,38,39,40');
    expect(screen.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '2',
      '3',
      '4',
      '5',
      '6',
    ]);
  });

  it('sliding variant never shows more than five page buttons', () => {
    render(<Harness total={200} variant="sliding" />);
    fireEvent.click(screen.getByRole('button', { name: 'Page 5' }));
    expect(screen.getAllByRole('button', { name: /^Page / }).map((b) => b.textContent)).toEqual([
      '3',
      '4',
      '5',
      '6',
      '7',
    ]);
  });

  it('the page-size choice offers the given sizes and returns to page 1', () => {
    render(<Harness total={95} />);
    fireEvent.click(screen.getByRole('button', { name: 'Page 2' }));
    fireEvent.mouseDown(screen.getByRole('combobox', { name: 'Rows per page' }));
    const options = within(screen.getByRole('listbox')).getAllByRole('option');
    expect(options.map((o) => o.textContent)).toEqual(['10', '25', '50', '100', '250']);
    fireEvent.click(options[1]);
    expect(screen.getByText('Showing 1 to 25 of 95 results')).toBeTruthy();
  });
});

describe('usePagination', () => {
  it('returns to page 1 when a filter changes', () => {
    const items = Array.from({ length: 100 }, (_, i) => i);
    const { result, rerender } = renderHook(
      ({ filter }) => usePagination(items, { defaultPageSize: 25, resetOn: [filter] }),
      {
        initialProps: { filter: 'all' },
      },
    );
    act(() => result.current.setPage(3));
    expect(result.current.page).toBe(3);
    rerender({ filter: 'pending' });
    expect(result.current.page).toBe(1);
  });

  it('defaults to the given page size and clamps to the last page when the list shrinks', () => {
    function useShrinking() {
      const [items, setItems] = useState(Array.from({ length: 60 }, (_, i) => i));
      return { p: usePagination(items), setItems };
    }
    const { result } = renderHook(useShrinking);
    expect(result.current.p.pageSize).toBe(25);
    act(() => result.current.p.setPage(3));
    act(() => result.current.setItems([1, 2, 3]));
    expect(result.current.p.page).toBe(1);
    expect(result.current.p.pageItems).toEqual([1, 2, 3]);
  });
});
