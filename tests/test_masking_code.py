"""Masking never rewrites code or markup that holds no secret (issue 54): after a password word
comes code as often as a password (``if not password:`` then ``return`` on the next line,
``<label>Password:</label>``, ``password = request.form["password"]``), and that code is kept as
written, in every language, config file and page below. What does hold a secret (a quoted password
in code, a setting's value in a config file) is masked, and counted by kind."""

from __future__ import annotations

import pytest

from ingestion.masking import mask_text
from temporal_graph import MaskingPolicy, TemporalGraph

DEFAULT = MaskingPolicy()

# Code, configuration and markup with no secret in them: kept byte for byte.
NO_SECRET = {
    "python flask": '''\
@app.route("/login", methods=["POST"])
def login():
    username = request.form.get("username")
    password = request.form.get("password")
    if not user or not password:
        return jsonify({"error": "username and password are required"}), 400
    user = User.query.filter_by(username=username).first()
    if user is None or not check_password_hash(user.password_hash, password):
        return jsonify({"error": "invalid credentials"}), 401
    session["user_id"] = user.id
    return redirect(url_for("dashboard"))''',
    "python types and calls": '''\
@dataclass
class Credentials:
    username: str
    password: SecretStr
    token: str | None = None

def connect(host: str, password: str = "", pw=None) -> Connection:
    password = password or getpass.getpass()
    self.password = password
    user.password = make_password(raw_password)
    pw = getpass.getpass("Password: ")
    if password == user.password:
        return Connection(host, password=pw, timeout=10)
    hashed = bcrypt.hashpw(password.encode(), bcrypt.gensalt())
    access_token = create_access_token_for_user2(identity=user.id)
    new_password = form.cleaned_data["new_password1"]''',
    "django settings": '''\
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": os.environ["DB_NAME"],
        "PASSWORD": os.environ["DB_PASSWORD"],
        "HOST": os.environ.get("DB_HOST", "localhost"),
    }
}
SECRET_KEY = os.environ["SECRET_KEY"]
secret_key = settings.SECRET_KEY
SECRET_KEY = get_random_secret_key()''',
    "javascript express": '''\
app.post('/login', async (req, res) => {
  const { email, password } = req.body;
  if (!email || !password) {
    return res.status(400).json({ message: 'Email and password are required' });
  }
  const password2 = req.body.password;
  const user = await User.findOne({ email });
  const ok = user && await bcrypt.compare(password, user.passwordHash);
  if (!ok) return res.status(401).json({ message: 'Invalid email or password' });
  res.json({ token: signToken(user.id) });
});''',
    "typescript and zod": '''\
interface LoginForm {
  email: string;
  password: string;
  remember?: boolean;
}
const schema = z.object({
  password: z.string().min(8),
  passwordConfirm: z.string(),
});
const userSchema = new Schema({ password: { type: String, required: true } });''',
    "react form": '''\
<form onSubmit={handleSubmit}>
  <label htmlFor="password">Password:</label>
  <input id="password" type="password" value={password}
         onChange={(e) => setPassword(e.target.value)} />
  <button type="submit">Sign in</button>
</form>''',
    "go handler": '''\
func (h *Handler) Login(w http.ResponseWriter, r *http.Request) {
	username := r.FormValue("username")
	password := r.FormValue("password")
	if username == "" || password == "" {
		http.Error(w, "missing credentials", http.StatusBadRequest)
		return
	}
	if err := bcrypt.CompareHashAndPassword(hash, []byte(password)); err != nil {
		http.Error(w, "invalid credentials", http.StatusUnauthorized)
	}
}''',
    "rust": '''\
let password = std::env::var("DB_PASSWORD").expect("DB_PASSWORD must be set");
let url = format!("postgres://app:{}@localhost/app", password);
let pool = PgPoolOptions::new().connect(&url).await?;''',
    "java spring": '''\
String password = System.getenv("DB_PASSWORD");
auth.inMemoryAuthentication()
    .withUser("admin").password(passwordEncoder().encode(adminPassword)).roles("ADMIN");
if (password.length() < 8) { throw new IllegalArgumentException("password too short"); }''',
    "c sharp": '''\
var password = Console.ReadLine();
if (string.IsNullOrWhiteSpace(password)) { return; }
var result = await _signInManager.PasswordSignInAsync(model.Email, model.Password, false, false);''',
    "kotlin": '''\
data class User(val email: String, val password: String)
val password: String = intent.getStringExtra("password") ?: ""''',
    "php": '''\
$password = $_POST['password'] ?? '';
if (password_verify($password, $row['password_hash'])) {
    $_SESSION['user'] = $row['id'];
}
$rules = ['password' => 'required|min:8|confirmed'];''',
    "ruby": '''\
class User < ApplicationRecord
  has_secure_password
  validates :password, length: { minimum: 8 }, if: -> { password.present? }
end
password = params[:password]''',
    "sql": '''\
CREATE TABLE users (
  id SERIAL PRIMARY KEY,
  email TEXT UNIQUE NOT NULL,
  password VARCHAR(255) NOT NULL,
  password_hash TEXT NOT NULL
);
UPDATE users SET password_hash = $1 WHERE id = $2;
SELECT * FROM users WHERE email = :email AND password = :password;''',
    "graphql": '''\
mutation { login(email: $email, password: $password) { token } }''',
    "shell": '''\
read -r -s -p "Password: " password
echo "password: $PASSWORD"
export PGPASSWORD="$password"
mysql -u root -p"$MYSQL_PASSWORD" -e "select 1"
cd "$(pwd)/build"
pwd: /home/ana/projects''',
    "docker compose": '''\
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_USER: app
      POSTGRES_PASSWORD: ${POSTGRES_PASSWORD}
      MYSQL_ROOT_PASSWORD: "${MYSQL_ROOT_PASSWORD:-}"''',
    "kubernetes": '''\
env:
  - name: DB_PASSWORD
    valueFrom:
      secretKeyRef:
        name: db-credentials
        key: password
  - name: DB_PASSWORD_FILE
    value: /run/secrets/db_password''',
    "helm template": '''\
password: {{ .Values.db.password | quote }}
password: "{{ .Values.db.password }}"''',
    "ini and env example": '''\
[database]
host = localhost
user = app
password = ${DB_PASSWORD}
password = %(db_password)s

DB_HOST=localhost
DB_PASSWORD=
SECRET_KEY=''',
    "json schema": '''\
{"type": "object", "required": ["email", "password"],
 "properties": {"password": {"type": "string", "minLength": 8}, "password_hint": {"type": "string"}}}''',
    "html page": '''\
<form method="post" action="/login">
  <label for="password">Password:</label>
  <input type="password" id="password" name="password" placeholder="Password: 8+ characters" required>
  <small>Password: at least 8 characters, one number.</small>
  <p>Password: <input type="password" name="pw"></p>
  <a href="/forgot">Forgot your password?</a>
</form>''',
    "markdown table": '''\
| Field    | Type   | Notes                |
|----------|--------|----------------------|
| password | string | hashed with argon2id |
Password: ********''',
    "tuples, errors and prose about settings": '''\
ssid, password = "Guest", os.environ["GUEST_WIFI_PASSWORD"]
user, password, ok := r.BasicAuth()
curl -u "$API_USER:$API_PASS" https://example.com/
java.sql.SQLException: Access denied for user 'app'@'localhost' (using password: YES)
Refuse to start when `ADMIN_PASSWORD` is empty: the password was sent and refused.''',
    "prose about code": '''\
The password is hashed with bcrypt before it is stored, and the password field is required.
Never log the password: compare it with check_password_hash(user.password_hash, password) instead.
Password: see the vault.''',
}

# Code and configuration holding a secret: the secret is masked, nothing else changes.
SECRET = [
    ('password = "hunter22"', 'password = "[password]"'),
    ("DB_PASSWORD=Qx7mT2pz", "DB_PASSWORD=[password]"),
    ('  "password": "s3cr3t-Pass",', '  "password": "[password]",'),
    ("spring.datasource.password=Tr0ub4dor&3", "spring.datasource.password=[password]"),
    ("    password: S3cure!Pass", "    password: [password]"),
    ("if password == 'letmein2':\n    password: 'opensesame'",
     "if password == 'letmein2':\n    password: '[password]'"),
    ("postgres://admin:Sup3rS3cret@db.internal:5432/app", "postgres://admin:[password]@db.internal:5432/app"),
    ("mysql://app:${DB_PASSWORD}@db/app", "mysql://app:${DB_PASSWORD}@db/app"),
    ('SECRET_KEY = "8f3kx9q2w7ZpLm4t"', 'SECRET_KEY = "[secret]"'),
    # the name of a setting stays when its value is a long random string
    ("JWT_SECRET=Zx81k3Pq0w9Lr2Tm5Nb7Vc4Hy6Gd1Fs8", "JWT_SECRET=[secret]"),
    ("export POSTGRES_PASSWORD=k7Lp2xQ9vN", "export POSTGRES_PASSWORD=[password]"),
    # the same password again, under a confirmation's name; on curl's command line
    ('User.create!(password: "Adm1nSeed!", password_confirmation: "Adm1nSeed!")',
     'User.create!(password: "[password]", password_confirmation: "[password]")'),
    ("curl -u admin:Pa55-for-admin https://example.com/admin/", "curl -u admin:[password] https://example.com/admin/"),
]


@pytest.mark.parametrize("code", NO_SECRET.values(), ids=NO_SECRET.keys())
def test_code_config_and_markup_without_a_secret_are_kept_as_written(code: str) -> None:
    masked = mask_text(code, DEFAULT)
    assert (masked.text, masked.counts) == (code, {})


@pytest.mark.parametrize(("code", "kept"), SECRET)
def test_a_secret_in_code_or_config_is_masked_and_nothing_else(code: str, kept: str) -> None:
    masked = mask_text(code, DEFAULT)
    assert masked.text == kept
    assert sum(masked.counts.values()) == kept.count("[") - code.count("[")


def test_the_issue_reproductions_keep_their_code() -> None:
    code = "if not user or not password:\n    return jsonify(error='missing')"
    assert mask_text(code, DEFAULT).text == code  # was "... password:\n    [password] jsonify(...)"
    assert mask_text("<label>Password:</label>", DEFAULT).text == "<label>Password:</label>"


def test_a_message_with_code_is_stored_as_written_and_its_secret_counted() -> None:
    snippet = NO_SECRET["python flask"]
    message = f"Here is my login view:\n\n```python\n{snippet}\n```\nThe test user's password is hunter22."
    with TemporalGraph.open(":memory:", embed=False) as tg:
        result = tg.add_episode(message, reference_time="2024-03-01", speaker="user")
    assert result.masked == {"password": 1}
    assert result.episode.content == message.replace("hunter22", "[password]")
