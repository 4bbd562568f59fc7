import { Link, NavLink } from "react-router-dom";
import { useGender } from "../lib/gender";
import { homePathFor, storesPathFor } from "../lib/gender-routing";
import { GenderSwitch } from "./GenderSwitch";
import { SearchBox } from "./SearchBox";
import { AccountMenu } from "./AccountMenu";
import { CartButton } from "./CartDrawer";
import { MobileMenu } from "./MobileMenu";
import "../header.css";

export function Header() {
  const { gender } = useGender();
  return (
    <header className="header">
      <div className="header__inner">
        {/* Below 768 px: the Menu button stands in for the main nav. */}
        <MobileMenu />
        <Link to={homePathFor(gender)} className="logo" aria-label="Fashion Discovery, home">
          fashion<span className="logo__dot">·</span>discovery
        </Link>
        <nav className="header__nav" aria-label="Main">
          <NavLink to={homePathFor(gender)} end className="header__link">
            Shop
          </NavLink>
          <NavLink to={storesPathFor(gender)} className="header__link">
            Stores
          </NavLink>
          <NavLink to="/drops" className="header__link" data-testid="drops-link">
            Drops
          </NavLink>
          <NavLink to="/assistant" className="header__link" data-testid="assistant-link">
            Assistant
          </NavLink>
        </nav>
        <div className="header__gender">
          <GenderSwitch />
        </div>
        <div className="header__search">
          <SearchBox />
          <Link to="/photo-search" className="photo-link" aria-label="Search with a photo" title="Search with a photo" data-testid="photo-search-link">
            <svg viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false">
              <path d="M4 8h3l2-3h6l2 3h3v11H4z" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinejoin="round" />
              <circle cx="12" cy="13" r="3.5" fill="none" stroke="currentColor" strokeWidth="1.8" />
            </svg>
          </Link>
          {/* Beside the search (not the account area): the header's one-line layout has room here at every width. */}
          <CartButton />
        </div>
        <div className="header__account">
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
