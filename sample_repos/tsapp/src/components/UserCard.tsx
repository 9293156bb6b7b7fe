import { Role, User } from '../models/user';
import { displayName } from '../services';
import { truncate } from '../utils/format';

export interface UserCardProps {
  user: User;
  compact?: boolean;
  onSelect?: (id: string) => void;
}

/** Small coloured badge showing a user's role. */
function RoleBadge({ role }: { role: Role }) {
  return <span className={`badge badge-${role}`}>{role}</span>;
}

/**
 * Card summarising a user: name, e-mail, role and tags.
 * Clicking the card reports the user's id through `onSelect`.
 */
export function UserCard({ user, compact = false, onSelect }: UserCardProps) {
  const name = displayName(user.firstName, user.lastName);
  const handleClick = () => onSelect?.(user.id);

  return (
    <div className="user-card" onClick={handleClick}>
      <h3 title={user.email}>{name}</h3>
      {!compact && <p className="email">{truncate(user.email, 30)}</p>}
      <RoleBadge role={user.role} />
      <ul className="tags">
        {(user.tags ?? []).map((tag) => (
          <li key={tag}>{tag}</li>
        ))}
      </ul>
    </div>
  );
}

export default UserCard;
