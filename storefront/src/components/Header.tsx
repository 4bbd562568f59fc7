import { Link, NavLink } from "react-router-dom";
import { useGender } from "../lib/gender";
import { homePathFor, storesPathFor } from "../lib/gender-routing";
import { GenderSwitch } from "./GenderSwitch";
import { SearchBox } from "./SearchBox";
import { AccountMenu } from "./AccountMenu";

export function Header() {
  const { gender } = useGender();
  return (
    <header className="header">
      <div className="header__inner">
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
        </nav>
        <div className="header__gender">
          <GenderSwitch />
        </div>
        <div className="header__search">
          <SearchBox />
        </div>
        <div className="header__account">
          <AccountMenu />
        </div>
      </div>
    </header>
  );
}
